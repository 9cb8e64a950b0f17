#===- FindKilnPython.cmake - the Python the package is built for ----------===#
#
# Finds Python's headers and nanobind in the build's Python environment
# (BUILD/venv, which build_tools/setup_python_env.sh makes with the pinned
# nanobind of bindings/python/requirements.txt), or in the interpreter
# -DPython_EXECUTABLE names. Sets KILN_PYTHON_FOUND. KILN_BUILD_PYTHON=ON
# makes a missing piece an error; AUTO leaves the package out.
#
#===------------------------------------------------------------------------===#

set(KILN_PYTHON_FOUND OFF)
set(kiln_python_missing "")
if(KILN_SANITIZER OR KILN_BUILD_FUZZERS)
  # An instrumented extension needs the sanitizer's runtime preloaded into
  # the interpreter.
  set(kiln_python_missing "a build with sanitizers or fuzzers")
else()
  if(NOT Python_EXECUTABLE AND EXISTS ${CMAKE_BINARY_DIR}/venv/bin/python)
    set(Python_EXECUTABLE ${CMAKE_BINARY_DIR}/venv/bin/python)
  endif()
  find_package(Python 3.9 COMPONENTS Interpreter Development.Module QUIET)
  if(NOT Python_FOUND)
    set(kiln_python_missing "no Python 3.9+ with its headers (python3-dev)")
  else()
    execute_process(
      COMMAND ${Python_EXECUTABLE} -m nanobind --cmake_dir
      OUTPUT_VARIABLE kiln_nanobind_dir OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE kiln_nanobind_result ERROR_QUIET)
    if(kiln_nanobind_result EQUAL 0)
      find_package(nanobind CONFIG QUIET HINTS ${kiln_nanobind_dir})
    endif()
    if(NOT nanobind_FOUND)
      set(kiln_python_missing "no nanobind in ${Python_EXECUTABLE}")
    endif()
  endif()
endif()

if(kiln_python_missing STREQUAL "")
  set(KILN_PYTHON_FOUND ON)
  message(STATUS "Python package: ${Python_EXECUTABLE}, nanobind "
                 "${nanobind_VERSION}")
elseif(KILN_BUILD_PYTHON STREQUAL "ON")
  message(FATAL_ERROR "KILN_BUILD_PYTHON=ON, but ${kiln_python_missing}: "
    "make the build's Python environment with build_tools/"
    "setup_python_env.sh BUILD (make does this), name another with "
    "-DPython_EXECUTABLE=PYTHON, or leave the package out with "
    "-DKILN_BUILD_PYTHON=OFF")
else()
  message(STATUS "Python package left out: ${kiln_python_missing}")
endif()
