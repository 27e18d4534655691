# Start-up programs: the time MPI takes to start, and a hello world.
OSU_PROGRAMS += osu_init osu_hello
