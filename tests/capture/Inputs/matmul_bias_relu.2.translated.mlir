kiln.executable @main_dispatch_0 attributes {kiln.stage = "2.translated"} {
  kiln.executable.variant @cpu target("llvm-cpu") attributes {cpu = "x86-64-v3", features = "", triple = "x86_64-unknown-linux-gnu"} {
    kiln.executable.export @main_dispatch_0_matmul_4x16x8_f32 ordinal(0) bindings(4) workgroups([1, 1, 1]) {binding_types = [tensor<4x8xf32>, tensor<8x16xf32>, tensor<16xf32>, tensor<4x16xf32>], outputs = 1 : index}
    builtin.module {
      llvm.func @main_dispatch_0_matmul_4x16x8_f32(%arg0: !llvm.ptr, %arg1: !llvm.ptr) -> i32 {
        %0 = llvm.mlir.poison : vector<16xf32>
        %1 = llvm.mlir.constant(0 : i64) : i64
        %2 = llvm.mlir.constant(64 : index) : i64
        %3 = llvm.mlir.constant(16 : index) : i64
        %4 = llvm.mlir.poison : !llvm.array<4 x vector<16xf32>>
        %5 = llvm.mlir.constant(0 : i32) : i32
        %6 = llvm.mlir.constant(3 : index) : i64
        %7 = llvm.mlir.constant(2 : index) : i64
        %8 = llvm.mlir.constant(dense<0.000000e+00> : vector<16xf32>) : vector<16xf32>
        %9 = llvm.mlir.constant(dense<0.000000e+00> : vector<4x16xf32>) : !llvm.array<4 x vector<16xf32>>
        %10 = llvm.mlir.constant(1 : index) : i64
        %11 = llvm.mlir.constant(8 : index) : i64
        %12 = llvm.mlir.constant(0 : index) : i64
        %13 = llvm.getelementptr inbounds %arg0[0, 2] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(array<3 x i32>, i32, ptr, ptr, array<4 x i64>)>
        %14 = llvm.load %13 {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
        %15 = llvm.load %14 {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
        %16 = llvm.getelementptr inbounds %14[1] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
        %17 = llvm.load %16 {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
        %18 = llvm.getelementptr inbounds %14[2] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
        %19 = llvm.load %18 {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
        %20 = llvm.alloca %2 x f32 {alignment = 64 : i64} : (i64) -> !llvm.ptr
        %21 = llvm.mul %12, %3 : i64
        %22 = llvm.add %21, %12 : i64
        %23 = llvm.getelementptr %20[%22] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %8, %23 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %24 = llvm.mul %10, %3 : i64
        %25 = llvm.add %24, %12 : i64
        %26 = llvm.getelementptr %20[%25] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %8, %26 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %27 = llvm.mul %7, %3 : i64
        %28 = llvm.add %27, %12 : i64
        %29 = llvm.getelementptr %20[%28] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %8, %29 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %30 = llvm.mul %6, %3 : i64
        %31 = llvm.add %30, %12 : i64
        %32 = llvm.getelementptr %20[%31] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %8, %32 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %33 = llvm.load %23 {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
        %34 = llvm.load %26 {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
        %35 = llvm.load %29 {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
        %36 = llvm.load %32 {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
        %37 = llvm.insertvalue %33, %4[0] : !llvm.array<4 x vector<16xf32>> 
        %38 = llvm.insertvalue %34, %37[1] : !llvm.array<4 x vector<16xf32>> 
        %39 = llvm.insertvalue %35, %38[2] : !llvm.array<4 x vector<16xf32>> 
        %40 = llvm.insertvalue %36, %39[3] : !llvm.array<4 x vector<16xf32>> 
        llvm.br ^bb1(%12, %40 : i64, !llvm.array<4 x vector<16xf32>>)
      ^bb1(%41: i64, %42: !llvm.array<4 x vector<16xf32>>):  // 2 preds: ^bb0, ^bb2
        %43 = llvm.icmp "slt" %41, %11 : i64
        llvm.cond_br %43, ^bb2, ^bb3
      ^bb2:  // pred: ^bb1
        %44 = llvm.mul %12, %11 : i64
        %45 = llvm.add %44, %41 : i64
        %46 = llvm.getelementptr %15[%45] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %47 = llvm.load %46 {alignment = 4 : i64} : !llvm.ptr -> vector<1xf32>
        %48 = llvm.mul %10, %11 : i64
        %49 = llvm.add %48, %41 : i64
        %50 = llvm.getelementptr %15[%49] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %51 = llvm.load %50 {alignment = 4 : i64} : !llvm.ptr -> vector<1xf32>
        %52 = llvm.mul %7, %11 : i64
        %53 = llvm.add %52, %41 : i64
        %54 = llvm.getelementptr %15[%53] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %55 = llvm.load %54 {alignment = 4 : i64} : !llvm.ptr -> vector<1xf32>
        %56 = llvm.mul %6, %11 : i64
        %57 = llvm.add %56, %41 : i64
        %58 = llvm.getelementptr %15[%57] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %59 = llvm.load %58 {alignment = 4 : i64} : !llvm.ptr -> vector<1xf32>
        %60 = llvm.mul %41, %3 : i64
        %61 = llvm.add %60, %12 : i64
        %62 = llvm.getelementptr %17[%61] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        %63 = llvm.load %62 {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
        %64 = llvm.extractelement %47[%1 : i64] : vector<1xf32>
        %65 = llvm.insertelement %64, %0[%5 : i32] : vector<16xf32>
        %66 = llvm.shufflevector %65, %0 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xf32> 
        %67 = llvm.extractvalue %42[0] : !llvm.array<4 x vector<16xf32>> 
        %68 = llvm.intr.fmuladd(%66, %63, %67) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
        %69 = llvm.extractelement %51[%1 : i64] : vector<1xf32>
        %70 = llvm.insertelement %69, %0[%5 : i32] : vector<16xf32>
        %71 = llvm.shufflevector %70, %0 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xf32> 
        %72 = llvm.extractvalue %42[1] : !llvm.array<4 x vector<16xf32>> 
        %73 = llvm.intr.fmuladd(%71, %63, %72) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
        %74 = llvm.extractelement %55[%1 : i64] : vector<1xf32>
        %75 = llvm.insertelement %74, %0[%5 : i32] : vector<16xf32>
        %76 = llvm.shufflevector %75, %0 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xf32> 
        %77 = llvm.extractvalue %42[2] : !llvm.array<4 x vector<16xf32>> 
        %78 = llvm.intr.fmuladd(%76, %63, %77) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
        %79 = llvm.extractelement %59[%1 : i64] : vector<1xf32>
        %80 = llvm.insertelement %79, %0[%5 : i32] : vector<16xf32>
        %81 = llvm.shufflevector %80, %0 [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] : vector<16xf32> 
        %82 = llvm.extractvalue %42[3] : !llvm.array<4 x vector<16xf32>> 
        %83 = llvm.intr.fmuladd(%81, %63, %82) : (vector<16xf32>, vector<16xf32>, vector<16xf32>) -> vector<16xf32>
        %84 = llvm.insertvalue %68, %4[0] : !llvm.array<4 x vector<16xf32>> 
        %85 = llvm.insertvalue %73, %84[1] : !llvm.array<4 x vector<16xf32>> 
        %86 = llvm.insertvalue %78, %85[2] : !llvm.array<4 x vector<16xf32>> 
        %87 = llvm.insertvalue %83, %86[3] : !llvm.array<4 x vector<16xf32>> 
        %88 = llvm.add %41, %10 : i64
        llvm.br ^bb1(%88, %87 : i64, !llvm.array<4 x vector<16xf32>>)
      ^bb3:  // pred: ^bb1
        %89 = llvm.extractvalue %42[0] : !llvm.array<4 x vector<16xf32>> 
        llvm.store %89, %23 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %90 = llvm.extractvalue %42[1] : !llvm.array<4 x vector<16xf32>> 
        llvm.store %90, %26 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %91 = llvm.extractvalue %42[2] : !llvm.array<4 x vector<16xf32>> 
        llvm.store %91, %29 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %92 = llvm.extractvalue %42[3] : !llvm.array<4 x vector<16xf32>> 
        llvm.store %92, %32 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %93 = llvm.load %23 {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
        %94 = llvm.load %26 {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
        %95 = llvm.load %29 {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
        %96 = llvm.load %32 {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
        %97 = llvm.load %19 {alignment = 4 : i64} : !llvm.ptr -> vector<16xf32>
        %98 = llvm.fadd %93, %97 : vector<16xf32>
        %99 = llvm.fadd %94, %97 : vector<16xf32>
        %100 = llvm.fadd %95, %97 : vector<16xf32>
        %101 = llvm.fadd %96, %97 : vector<16xf32>
        %102 = llvm.extractvalue %9[0] : !llvm.array<4 x vector<16xf32>> 
        %103 = llvm.intr.maximum(%98, %102) : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
        %104 = llvm.extractvalue %9[1] : !llvm.array<4 x vector<16xf32>> 
        %105 = llvm.intr.maximum(%99, %104) : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
        %106 = llvm.extractvalue %9[2] : !llvm.array<4 x vector<16xf32>> 
        %107 = llvm.intr.maximum(%100, %106) : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
        %108 = llvm.extractvalue %9[3] : !llvm.array<4 x vector<16xf32>> 
        %109 = llvm.intr.maximum(%101, %108) : (vector<16xf32>, vector<16xf32>) -> vector<16xf32>
        %110 = llvm.load %13 {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
        %111 = llvm.getelementptr inbounds %110[3] : (!llvm.ptr) -> !llvm.ptr, !llvm.ptr
        %112 = llvm.load %111 {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
        %113 = llvm.getelementptr %112[%22] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %103, %113 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %114 = llvm.getelementptr %112[%25] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %105, %114 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %115 = llvm.getelementptr %112[%28] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %107, %115 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        %116 = llvm.getelementptr %112[%31] : (!llvm.ptr, i64) -> !llvm.ptr, f32
        llvm.store %109, %116 {alignment = 4 : i64} : vector<16xf32>, !llvm.ptr
        llvm.return %5 : i32
      }
    }
  }
}
