# What tileslc_add_kernels and tileslc_add_cpu_kernels share: finding the
# compiler and the runtime, in this build (the tileslc targets), from
# find_package(tileslc) (the imported tileslc:: targets) or, for the compiler,
# from the cache variable TILESLC_EXECUTABLE.
include_guard(GLOBAL)

set(TILESLC_EXECUTABLE "" CACHE FILEPATH
    "The tileslc compiler used by tileslc_add_kernels when the tileslc target is not part of this build")

# Sets <out_exe> to the tileslc compiler to run and <out_dep> to what the
# custom commands depend on (see above); a fatal error names `caller`.
function(_tileslc_compiler caller out_exe out_dep)
  if(TARGET tileslc)
    set(${out_exe} "$<TARGET_FILE:tileslc>" PARENT_SCOPE)
    set(${out_dep} tileslc PARENT_SCOPE)
  elseif(TARGET tileslc::tileslc)
    set(${out_exe} "$<TARGET_FILE:tileslc::tileslc>" PARENT_SCOPE)
    set(${out_dep} "$<TARGET_FILE:tileslc::tileslc>" PARENT_SCOPE)
  elseif(TILESLC_EXECUTABLE)
    set(${out_exe} "${TILESLC_EXECUTABLE}" PARENT_SCOPE)
    set(${out_dep} "${TILESLC_EXECUTABLE}" PARENT_SCOPE)
  else()
    message(FATAL_ERROR "${caller}: no tileslc compiler: there is no `tileslc` target in this build, "
                        "find_package(tileslc) was not called and TILESLC_EXECUTABLE is not set")
  endif()
endfunction()

# Sets <out> to the first of the given targets that exists; a fatal error
# names `caller` and says `why` when none does.
function(_tileslc_pick_target caller out why)
  foreach(_t IN LISTS ARGN)
    if(TARGET ${_t})
      set(${out} ${_t} PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "${caller}: the tileslc runtime (${ARGN}) is missing; ${why}")
endfunction()
