# Point-to-point programs and their shared driver.
OSU_PROGRAMS +=
OSU_HELPERS  +=
