//===- PackAnalysis.h - packs and unpacks of packed contractions -*- C++ -*-===//
//
// Which packs and unpacks around a packed contraction (mmt4d) can run in
// its dispatch without a packed copy of their own: dispatch formation fuses
// them by these answers, and strategy selection plans their code by them.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_ANALYSIS_PACKANALYSIS_H_
#define KILN_ANALYSIS_PACKANALYSIS_H_

#include "mlir/IR/Operation.h"

namespace mlir::kiln {

/// A pack of packed contractions' LHS (every use is the LHS of an mmt4d or
/// batch_mmt4d) that tiles K by one, and pads only where the contractions'
/// results are unpacked alone: the contractions can read each of its tiles
/// straight from its source (one element of each of M0 rows per step of K,
/// broadcast; a padded row read as the source's last), so no packed copy is
/// needed. Its source's rows may be known only at run time (a batch) where
/// each contraction's result is unpacked alone by a
/// canUnPackInContraction unpack.
bool canReadPackInPlace(Operation *op);

/// Whether `op`, the unpack of a packed contraction's result, can run in the
/// contraction's dispatch: shapes known at compile time, or known but for
/// the rows (a batch), the result's dims not permuted.
bool canUnPackInContraction(Operation *op);

} // namespace mlir::kiln

#endif // KILN_ANALYSIS_PACKANALYSIS_H_
