//===- KilnBase.td - kiln dialect definition ---------------*- tablegen -*-===//

#ifndef KILN_DIALECT_KILN_BASE
#define KILN_DIALECT_KILN_BASE

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Kiln_Dialect : Dialect {
  let name = "kiln";
  let cppNamespace = "::mlir::kiln";
  let summary = "Host program, executables and dispatch interface of kiln.";
  let description = [{
    The kiln dialect describes a compiled tensor program: host functions that
    order dispatches (`kiln.dispatch`), the executables those dispatches run
    (`kiln.executable` with one `kiln.executable.variant` per target), and the
    interface a kernel sees from inside an executable (`kiln.binding`,
    `kiln.workgroup.id`, `kiln.workgroup.count`).
  }];
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

class Kiln_Op<string mnemonic, list<Trait> traits = []>
    : Op<Kiln_Dialect, mnemonic, traits>;

class Kiln_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Kiln_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Kiln_LoweringConfigAttr : Kiln_Attr<"LoweringConfig", "lowering_config"> {
  let summary = "Tile and vector sizes chosen for a dispatch root op.";
  let description = [{
    Attached to the root op of a dispatch by strategy selection. `workgroup`
    gives, per loop of the root op, the tile one workgroup computes (0: not
    tiled; absent on ops that are not distributed); `vector` the tile that
    is vectorized inside a workgroup (reduction loops included; 0: not
    tiled).

    ```mlir
    linalg.matmul {lowering_config = #kiln.lowering_config<
        workgroup = [64, 64, 0], vector = [8, 32, 1]>} ...
    ```
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t", "workgroup tile sizes">:$workgroup,
    ArrayRefParameter<"int64_t", "vector tile sizes">:$vector
  );
  let assemblyFormat = [{
    `<` (`workgroup` `=` `[` $workgroup^ `]` `,` ` `)? `vector` `=` `[` $vector `]` `>`
  }];
}

#endif // KILN_DIALECT_KILN_BASE
