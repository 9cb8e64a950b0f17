kiln.executable @ex attributes {kiln.stage = "7.nowhere"} {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @ex ordinal(0) bindings(1)
    builtin.module {
      func.func @ex() {
        return
      }
    }
  }
}
