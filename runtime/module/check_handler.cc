//===- check_handler.cc - Where check instructions go ---------------------===//

#include "kiln/check_handler.h"

namespace kiln {

std::string_view CheckKindName(CheckKind kind) {
  switch (kind) {
    case CheckKind::kTrue:
      return "expect_true";
    case CheckKind::kFalse:
      return "expect_false";
    case CheckKind::kAllTrue:
      return "expect_all_true";
    case CheckKind::kEqual:
      return "expect_eq";
    case CheckKind::kAlmostEqual:
      return "expect_almost_eq";
  }
  return "<invalid check>";
}

CheckHandler::~CheckHandler() = default;

}  // namespace kiln
