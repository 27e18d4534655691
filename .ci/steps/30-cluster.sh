# The suite and the CPM models on an emulated 4-host cluster (network
# namespaces, tbf-shaped links); skips with a message where namespaces
# cannot be made.
make check-cluster
