# Installs the build at KILN_BUILD_DIR into a fresh prefix under WORK_DIR,
# builds tests/install against it with find_package(kiln) alone (no path
# into the source or build tree), and runs it on samples/mlp.mlir compiled
# by the installed kiln-compile, as the installed kiln-run does.
#
#   cmake -DKILN_BUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=...
#         -P run_install_test.cmake

foreach(var KILN_BUILD_DIR SOURCE_DIR WORK_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_install_test.cmake needs -D${var}=...")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result
                  OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "failed (${result}): ${ARGN}\n${output}")
  endif()
  set(last_output "${output}" PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${KILN_BUILD_DIR} --prefix ${prefix})
foreach(file include/kiln/context.h include/kiln/module_generated.h
             lib/cmake/kiln/kilnConfig.cmake bin/kiln-compile bin/kiln-run
             bin/kiln-dump bin/kiln-check bin/kiln-benchmark)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "not installed: ${file}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/install -B ${WORK_DIR}/build
    -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${prefix}/bin/kiln-compile ${SOURCE_DIR}/samples/mlp.mlir
    -o ${WORK_DIR}/mlp.kiln)
run(${prefix}/bin/kiln-run ${WORK_DIR}/mlp.kiln --function=main
    --input=4x8xf32=0.5)
if(NOT last_output MATCHES "^4x4xf32=")
  message(FATAL_ERROR "unexpected output from kiln-run:\n${last_output}")
endif()
run(${WORK_DIR}/build/embedder ${WORK_DIR}/mlp.kiln main 4x8)
# samples/mlp.mlir ends in a softmax: each of its 4 rows sums to 1.
if(NOT last_output MATCHES "^4x4xf32 sum 4\\.0000\n$")
  message(FATAL_ERROR "unexpected output from the embedder:\n${last_output}")
endif()
message(STATUS "embedder: ${last_output}")
