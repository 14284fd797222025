# Writes OUT from tools/brrrc/Version.cpp.in with the version of the tree in
# SOURCE: VERSION, then "+g" and the commit checked out there. It runs at
# every build (a configure-time stamp went stale with each new commit);
# configure_file leaves OUT untouched when the version did not change, so
# nothing recompiles then.
set(BRRR_VERSION "${VERSION}")
execute_process(COMMAND git -C "${SOURCE}" rev-parse --short HEAD
                OUTPUT_VARIABLE BRRR_COMMIT OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE BRRR_GIT_STATUS ERROR_QUIET)
if(BRRR_GIT_STATUS EQUAL 0 AND BRRR_COMMIT)
  string(APPEND BRRR_VERSION "+g${BRRR_COMMIT}")
endif()
configure_file("${SOURCE}/tools/brrrc/Version.cpp.in" "${OUT}" @ONLY)
