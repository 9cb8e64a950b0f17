// RUN: kiln-compile %s -o %t.kiln && kiln-check --guard-pages %t.kiln | FileCheck %s
// TOSA data movement: transpose, slice, concat, reverse, gather, identity,
// const, and table lookups (int8, and int16 with interpolation). reshape, pad
// and tile are in shape_ops.mlir.

// CHECK: {{^}}transpose_2d_i32: PASS
// CHECK: {{^}}transpose_3d_f32: PASS
// CHECK: {{^}}slice_2d_i32: PASS
// CHECK: {{^}}slice_1d_f32: PASS
// CHECK: {{^}}concat_axis0_i32: PASS
// CHECK: {{^}}concat_axis1_three_inputs_f32: PASS
// CHECK: {{^}}reverse_axis0_i32: PASS
// CHECK: {{^}}reverse_axis1_f32: PASS
// CHECK: {{^}}gather_f32: PASS
// CHECK: {{^}}gather_i32: PASS
// CHECK: {{^}}identity_f32: PASS
// CHECK: {{^}}identity_i32: PASS
// CHECK: {{^}}const_add_i32: PASS
// CHECK: {{^}}table_i8: PASS
// CHECK: {{^}}table_i16: PASS
// CHECK: {{^}}15 passed, 0 failed

func.func @transpose_2d_i32() {
  %0 = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>
  %1 = tosa.transpose %0 {perms = array<i32: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  check.expect_eq_const(%1, dense<[[1, 4], [2, 5], [3, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}

// out[i, j, k] = in[j, k, i]
func.func @transpose_3d_f32() {
  %0 = util.unfoldable_constant dense<[[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], [[6.0, 7.0, 8.0], [9.0, 10.0, 11.0]]]> : tensor<2x2x3xf32>
  %1 = tosa.transpose %0 {perms = array<i32: 2, 0, 1>} : (tensor<2x2x3xf32>) -> tensor<3x2x2xf32>
  check.expect_almost_eq_const(%1, dense<[[[0.0, 3.0], [6.0, 9.0]], [[1.0, 4.0], [7.0, 10.0]], [[2.0, 5.0], [8.0, 11.0]]]> : tensor<3x2x2xf32>) : tensor<3x2x2xf32>
  return
}

func.func @slice_2d_i32() {
  %0 = util.unfoldable_constant dense<[[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]]> : tensor<3x4xi32>
  %start = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %1 = tosa.slice %0, %start, %size : (tensor<3x4xi32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xi32>
  check.expect_eq_const(%1, dense<[[6, 7], [10, 11]]> : tensor<2x2xi32>) : tensor<2x2xi32>
  return
}

func.func @slice_1d_f32() {
  %0 = util.unfoldable_constant dense<[0.0, 1.5, 3.0, 4.5, 6.0, 7.5]> : tensor<6xf32>
  %start = tosa.const_shape {values = dense<[2]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %size = tosa.const_shape {values = dense<[3]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %1 = tosa.slice %0, %start, %size : (tensor<6xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<3xf32>
  check.expect_almost_eq_const(%1, dense<[3.0, 4.5, 6.0]> : tensor<3xf32>) : tensor<3xf32>
  return
}

func.func @concat_axis0_i32() {
  %0 = util.unfoldable_constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %1 = util.unfoldable_constant dense<[[5, 6]]> : tensor<1x2xi32>
  %2 = tosa.concat %0, %1 {axis = 0 : i32} : (tensor<2x2xi32>, tensor<1x2xi32>) -> tensor<3x2xi32>
  check.expect_eq_const(%2, dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi32>) : tensor<3x2xi32>
  return
}

func.func @concat_axis1_three_inputs_f32() {
  %0 = util.unfoldable_constant dense<[[1.0], [2.0]]> : tensor<2x1xf32>
  %1 = util.unfoldable_constant dense<[[3.0, 4.0], [5.0, 6.0]]> : tensor<2x2xf32>
  %2 = util.unfoldable_constant dense<[[7.0], [8.0]]> : tensor<2x1xf32>
  %3 = tosa.concat %0, %1, %2 {axis = 1 : i32} : (tensor<2x1xf32>, tensor<2x2xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%3, dense<[[1.0, 3.0, 4.0, 7.0], [2.0, 5.0, 6.0, 8.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}

func.func @reverse_axis0_i32() {
  %0 = util.unfoldable_constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi32>
  %1 = tosa.reverse %0 {axis = 0 : i32} : (tensor<3x3xi32>) -> tensor<3x3xi32>
  check.expect_eq_const(%1, dense<[[7, 8, 9], [4, 5, 6], [1, 2, 3]]> : tensor<3x3xi32>) : tensor<3x3xi32>
  return
}

func.func @reverse_axis1_f32() {
  %0 = util.unfoldable_constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  %1 = tosa.reverse %0 {axis = 1 : i32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  check.expect_almost_eq_const(%1, dense<[[4.0, 3.0, 2.0, 1.0], [8.0, 7.0, 6.0, 5.0]]> : tensor<2x4xf32>) : tensor<2x4xf32>
  return
}

// values [N, K, C], indices [N, W] -> [N, W, C]: out[n, w] = values[n, indices[n, w]].
func.func @gather_f32() {
  %0 = util.unfoldable_constant dense<[[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0]], [[8.0, 9.0], [10.0, 11.0], [12.0, 13.0], [14.0, 15.0]]]> : tensor<2x4x2xf32>
  %1 = util.unfoldable_constant dense<[[3, 0, 3], [1, 2, 0]]> : tensor<2x3xi32>
  %2 = tosa.gather %0, %1 : (tensor<2x4x2xf32>, tensor<2x3xi32>) -> tensor<2x3x2xf32>
  check.expect_almost_eq_const(%2, dense<[[[6.0, 7.0], [0.0, 1.0], [6.0, 7.0]], [[10.0, 11.0], [12.0, 13.0], [8.0, 9.0]]]> : tensor<2x3x2xf32>) : tensor<2x3x2xf32>
  return
}

func.func @gather_i32() {
  %0 = util.unfoldable_constant dense<[[[10], [20], [30], [40], [50]]]> : tensor<1x5x1xi32>
  %1 = util.unfoldable_constant dense<[[4, 4, 0, 2]]> : tensor<1x4xi32>
  %2 = tosa.gather %0, %1 : (tensor<1x5x1xi32>, tensor<1x4xi32>) -> tensor<1x4x1xi32>
  check.expect_eq_const(%2, dense<[[[50], [50], [10], [30]]]> : tensor<1x4x1xi32>) : tensor<1x4x1xi32>
  return
}

func.func @identity_f32() {
  %0 = util.unfoldable_constant dense<[[1.0, -2.0], [3.5, 0.0]]> : tensor<2x2xf32>
  %1 = tosa.identity %0 : (tensor<2x2xf32>) -> tensor<2x2xf32>
  check.expect_eq(%1, %0) : tensor<2x2xf32>
  return
}

func.func @identity_i32() {
  %0 = util.unfoldable_constant dense<[5, -6, 7]> : tensor<3xi32>
  %1 = tosa.identity %0 : (tensor<3xi32>) -> tensor<3xi32>
  check.expect_eq_const(%1, dense<[5, -6, 7]> : tensor<3xi32>) : tensor<3xi32>
  return
}

// A tosa.const flows into the computation.
func.func @const_add_i32() {
  %0 = util.unfoldable_constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %1 = "tosa.const"() <{values = dense<[10, 20, 30, 40]> : tensor<4xi32>}> : () -> tensor<4xi32>
  %2 = tosa.add %0, %1 : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  check.expect_eq_const(%2, dense<[11, 22, 33, 44]> : tensor<4xi32>) : tensor<4xi32>
  return
}

// int8 table: out = table[x + 128]; here table[j] = (7 * j mod 256) - 128.
func.func @table_i8() {
  %0 = util.unfoldable_constant dense<[-128, -1, 0, 1, 5, 127]> : tensor<6xi8>
  %table = "tosa.const"() <{values = dense<[-128, -121, -114, -107, -100, -93, -86, -79, -72, -65, -58, -51, -44, -37, -30, -23, -16, -9, -2, 5, 12, 19, 26, 33, 40, 47, 54, 61, 68, 75, 82, 89, 96, 103, 110, 117, 124, -125, -118, -111, -104, -97, -90, -83, -76, -69, -62, -55, -48, -41, -34, -27, -20, -13, -6, 1, 8, 15, 22, 29, 36, 43, 50, 57, 64, 71, 78, 85, 92, 99, 106, 113, 120, 127, -122, -115, -108, -101, -94, -87, -80, -73, -66, -59, -52, -45, -38, -31, -24, -17, -10, -3, 4, 11, 18, 25, 32, 39, 46, 53, 60, 67, 74, 81, 88, 95, 102, 109, 116, 123, -126, -119, -112, -105, -98, -91, -84, -77, -70, -63, -56, -49, -42, -35, -28, -21, -14, -7, 0, 7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 105, 112, 119, 126, -123, -116, -109, -102, -95, -88, -81, -74, -67, -60, -53, -46, -39, -32, -25, -18, -11, -4, 3, 10, 17, 24, 31, 38, 45, 52, 59, 66, 73, 80, 87, 94, 101, 108, 115, 122, -127, -120, -113, -106, -99, -92, -85, -78, -71, -64, -57, -50, -43, -36, -29, -22, -15, -8, -1, 6, 13, 20, 27, 34, 41, 48, 55, 62, 69, 76, 83, 90, 97, 104, 111, 118, 125, -124, -117, -110, -103, -96, -89, -82, -75, -68, -61, -54, -47, -40, -33, -26, -19, -12, -5, 2, 9, 16, 23, 30, 37, 44, 51, 58, 65, 72, 79, 86, 93, 100, 107, 114, 121]> : tensor<256xi8>}> : () -> tensor<256xi8>
  %1 = tosa.table %0, %table : (tensor<6xi8>, tensor<256xi8>) -> tensor<6xi8>
  check.expect_eq_const(%1, dense<[-128, -7, 0, 7, 35, 121]> : tensor<6xi8>) : tensor<6xi8>
  return
}

// int16 table with interpolation, i32 result: for b = x + 32768,
// out = (table[b >> 7] << 7) + (table[(b >> 7) + 1] - table[b >> 7]) * (b & 127);
// here table[j] = floor(j * j / 64) - 2048.
func.func @table_i16() {
  %0 = util.unfoldable_constant dense<[-32768, -1, 0, 100, -20000, 32767, 12345]> : tensor<7xi16>
  %table = "tosa.const"() <{values = dense<[-2048, -2048, -2048, -2048, -2048, -2048, -2048, -2048, -2047, -2047, -2047, -2047, -2046, -2046, -2045, -2045, -2044, -2044, -2043, -2043, -2042, -2042, -2041, -2040, -2039, -2039, -2038, -2037, -2036, -2035, -2034, -2033, -2032, -2031, -2030, -2029, -2028, -2027, -2026, -2025, -2023, -2022, -2021, -2020, -2018, -2017, -2015, -2014, -2012, -2011, -2009, -2008, -2006, -2005, -2003, -2001, -1999, -1998, -1996, -1994, -1992, -1990, -1988, -1986, -1984, -1982, -1980, -1978, -1976, -1974, -1972, -1970, -1967, -1965, -1963, -1961, -1958, -1956, -1953, -1951, -1948, -1946, -1943, -1941, -1938, -1936, -1933, -1930, -1927, -1925, -1922, -1919, -1916, -1913, -1910, -1907, -1904, -1901, -1898, -1895, -1892, -1889, -1886, -1883, -1879, -1876, -1873, -1870, -1866, -1863, -1859, -1856, -1852, -1849, -1845, -1842, -1838, -1835, -1831, -1827, -1823, -1820, -1816, -1812, -1808, -1804, -1800, -1796, -1792, -1788, -1784, -1780, -1776, -1772, -1768, -1764, -1759, -1755, -1751, -1747, -1742, -1738, -1733, -1729, -1724, -1720, -1715, -1711, -1706, -1702, -1697, -1692, -1687, -1683, -1678, -1673, -1668, -1663, -1658, -1653, -1648, -1643, -1638, -1633, -1628, -1623, -1618, -1613, -1607, -1602, -1597, -1592, -1586, -1581, -1575, -1570, -1564, -1559, -1553, -1548, -1542, -1537, -1531, -1525, -1519, -1514, -1508, -1502, -1496, -1490, -1484, -1478, -1472, -1466, -1460, -1454, -1448, -1442, -1436, -1430, -1423, -1417, -1411, -1405, -1398, -1392, -1385, -1379, -1372, -1366, -1359, -1353, -1346, -1340, -1333, -1326, -1319, -1313, -1306, -1299, -1292, -1285, -1278, -1271, -1264, -1257, -1250, -1243, -1236, -1229, -1222, -1215, -1207, -1200, -1193, -1186, -1178, -1171, -1163, -1156, -1148, -1141, -1133, -1126, -1118, -1111, -1103, -1095, -1087, -1080, -1072, -1064, -1056, -1048, -1040, -1032, -1024, -1016, -1008, -1000, -992, -984, -976, -968, -959, -951, -943, -935, -926, -918, -909, -901, -892, -884, -875, -867, -858, -850, -841, -832, -823, -815, -806, -797, -788, -779, -770, -761, -752, -743, -734, -725, -716, -707, -698, -689, -679, -670, -661, -652, -642, -633, -623, -614, -604, -595, -585, -576, -566, -557, -547, -537, -527, -518, -508, -498, -488, -478, -468, -458, -448, -438, -428, -418, -408, -398, -388, -378, -367, -357, -347, -337, -326, -316, -305, -295, -284, -274, -263, -253, -242, -232, -221, -210, -199, -189, -178, -167, -156, -145, -134, -123, -112, -101, -90, -79, -68, -57, -46, -35, -23, -12, -1, 10, 22, 33, 45, 56, 68, 79, 91, 102, 114, 125, 137, 149, 161, 172, 184, 196, 208, 220, 232, 244, 256, 268, 280, 292, 304, 316, 328, 340, 353, 365, 377, 389, 402, 414, 427, 439, 452, 464, 477, 489, 502, 514, 527, 540, 553, 565, 578, 591, 604, 617, 630, 643, 656, 669, 682, 695, 708, 721, 734, 747, 761, 774, 787, 800, 814, 827, 841, 854, 868, 881, 895, 908, 922, 935, 949, 963, 977, 990, 1004, 1018, 1032, 1046, 1060, 1074, 1088, 1102, 1116, 1130, 1144, 1158, 1172, 1186, 1201, 1215, 1229, 1243, 1258, 1272, 1287, 1301, 1316, 1330, 1345, 1359, 1374, 1388, 1403, 1418, 1433, 1447, 1462, 1477, 1492, 1507, 1522, 1537, 1552, 1567, 1582, 1597, 1612, 1627, 1642, 1657, 1673, 1688, 1703, 1718, 1734, 1749, 1765, 1780, 1796, 1811, 1827, 1842, 1858, 1873, 1889, 1905, 1921, 1936, 1952, 1968, 1984, 2000, 2016, 2032, 2048]> : tensor<513xi16>}> : () -> tensor<513xi16>
  %1 = tosa.table %0, %table : (tensor<7xi16>, tensor<513xi16>) -> tensor<7xi32>
  check.expect_eq_const(%1, dense<[-262144, -131080, -131072, -130272, -242272, 262128, -13709]> : tensor<7xi32>) : tensor<7xi32>
  return
}
