# make check-scale: the SMPI build (make SMPI=1, into SMPI_BUILD, default
# build-smpi) and every program of it under smpirun on simulated clusters
# (tests/scale/check.sh; platforms from tests/scale/platform.py).
.PHONY: check-scale
check-scale:
	$(MAKE) SMPI=1 BUILD=$(or $(SMPI_BUILD),$(if $(filter 1,$(SMPI)),$(BUILD),build-smpi))
	BUILD=$(or $(SMPI_BUILD),$(if $(filter 1,$(SMPI)),$(BUILD),build-smpi)) tests/scale/check.sh
