//===- status_test.cc - Status and StatusOr tests -------------------------===//

#include "kiln/status.h"

#include <cerrno>

#include "gtest/gtest.h"

namespace kiln {
namespace {

TEST(StatusTest, DefaultIsOk) {
  Status status;
  EXPECT_TRUE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kOk);
  EXPECT_EQ(status.ToString(), "OK");
}

TEST(StatusTest, ErrorCarriesCodeAndMessage) {
  Status status = InvalidArgumentError("expected ", 6, " values, got ", 5);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "expected 6 values, got 5");
  EXPECT_EQ(status.ToString(), "INVALID_ARGUMENT: expected 6 values, got 5");
}

TEST(StatusTest, PrependAddsContextOnErrorsOnly) {
  Status error = NotFoundError("no such thing");
  error.Prepend("input 1");
  EXPECT_EQ(error.message(), "input 1: no such thing");
  Status ok;
  ok.Prepend("context");
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.message(), "");
}

TEST(StatusTest, StrCatFormatsNumbers) {
  EXPECT_EQ(StrCat("a", 1, 'b', -2, " ", 2.5, " ", uint64_t{1} << 40, true),
            "a1b-2 2.5 1099511627776true");
}

TEST(StatusTest, ErrnoToStatus) {
  Status status = ErrnoToStatus(ENOENT, "cannot open 'x'");
  EXPECT_EQ(status.code(), StatusCode::kNotFound);
  EXPECT_EQ(status.message(), "cannot open 'x': No such file or directory");
}

Status FailIf(bool fail) {
  if (fail) return DataLossError("root cause");
  return OkStatus();
}

Status Outer(bool fail, int index) {
  KILN_RETURN_IF_ERROR(FailIf(fail), "item ", index);
  return OkStatus();
}

Status OuterNoContext(bool fail) {
  KILN_RETURN_IF_ERROR(FailIf(fail));
  return OkStatus();
}

TEST(StatusTest, ReturnIfErrorAnnotates) {
  EXPECT_TRUE(Outer(false, 3).ok());
  Status status = Outer(true, 3);
  EXPECT_EQ(status.code(), StatusCode::kDataLoss);
  EXPECT_EQ(status.message(), "item 3: root cause");
  EXPECT_EQ(OuterNoContext(true).message(), "root cause");
}

StatusOr<int> Half(int value) {
  if (value % 2) return InvalidArgumentError(value, " is odd");
  return value / 2;
}

Status Quarter(int value, int* out) {
  KILN_ASSIGN_OR_RETURN(int half, Half(value));
  KILN_ASSIGN_OR_RETURN(*out, Half(half));
  return OkStatus();
}

TEST(StatusOrTest, ValueOrError) {
  StatusOr<int> good = Half(8);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 4);
  StatusOr<int> bad = Half(3);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "3 is odd");

  int out = 0;
  EXPECT_TRUE(Quarter(8, &out).ok());
  EXPECT_EQ(out, 2);
  EXPECT_EQ(Quarter(6, &out).message(), "3 is odd");
}

TEST(StatusOrTest, OkStatusIsNotAValue) {
  StatusOr<int> wrong{OkStatus()};
  EXPECT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace kiln
