# Plots the output of collective: time against message size per process,
# with the confidence interval as error bars, and optionally a prediction.
#   mpirun -n 8 collective -O MPI_Bcast -t global > bcast.out
#   gnuplot -e "datafile='bcast.out'" cpm/collective.gp > bcast.png
if (!exists("datafile")) datafile = 'collective.out'
set terminal pngcairo size 900,600
set xlabel 'message size per process (bytes)'
set ylabel 'time (s)'
set key top left
# With -e "prediction='pred.out'" (the output of prediction) both are drawn.
if (exists("prediction")) {
    plot datafile using 1:2:5 with yerrorlines title 'measured', \
         prediction using 1:2 with lines title 'predicted'
} else {
    plot datafile using 1:2:5 with yerrorlines title 'measured'
}
