# CTest fixture of tst_apisdk (run with cmake -P): installs the official SDKs pinned by
# package-lock.json (openai, @anthropic-ai/sdk) into the build tree with `npm ci`, as the
# tokenizer reference fixture does. Needs Node.js and npm (Debian: nodejs, npm); it fails, with
# that said, when they are missing, rather than letting the test pass without the SDKs.
#   -DSRC=<tests/apis> -DREF=<build dir for node_modules>
find_program(NODE node)
find_program(NPM npm)
if(NOT NODE OR NOT NPM)
    message(FATAL_ERROR
        "tst_apisdk needs Node.js and npm to install and run the official OpenAI and Anthropic "
        "SDKs. Install them (Debian: apt-get install nodejs npm) and run again.")
endif()

file(MAKE_DIRECTORY ${REF})
# npm ci only when the lock file changed since the last successful install (about 50 MB).
file(SHA256 ${SRC}/package-lock.json _lock_hash)
set(_stamp ${REF}/node_modules/.servebench-lock-sha256)
set(_installed "")
if(EXISTS ${_stamp})
    file(READ ${_stamp} _installed)
endif()
if(NOT _installed STREQUAL _lock_hash)
    configure_file(${SRC}/package.json ${REF}/package.json COPYONLY)
    configure_file(${SRC}/package-lock.json ${REF}/package-lock.json COPYONLY)
    message(STATUS "npm ci in ${REF}")
    execute_process(COMMAND ${NPM} ci --no-audit --no-fund --loglevel=error
        WORKING_DIRECTORY ${REF} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    if(NOT _rc EQUAL 0)
        message(FATAL_ERROR "npm ci failed in ${REF} (${_rc}):\n${_out}\n${_err}")
    endif()
    file(WRITE ${_stamp} ${_lock_hash})
endif()
