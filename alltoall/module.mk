$(call family,alltoall,all)
