# Runs scripts/methods_table.py on a bench.json and fails unless its output equals the
# committed table byte for byte. OPTS (optional): arguments before the JSON path.
execute_process(COMMAND ${PY} ${SCRIPT} ${OPTS} ${JSON} OUTPUT_VARIABLE got RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "methods_table.py failed (${rc}) on ${JSON}")
endif()
file(READ ${WANT} want)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "${WANT} is not what methods_table.py prints for ${JSON}: regenerate it")
endif()
message(STATUS "table matches ${JSON}")
