# Sourced first by the scripts that make a results table (three_seeds.sh, distillation_seeds.sh,
# few_labels_pretraining.sh, pretraining_length.sh, fashion_mnist_search.sh), whose first word
# names the table: takes NAME off the words, makes the runs' folder runs/NAME ($runs), and brings
# the two steps every such script takes.
name=${1:?the name of the table, then the words for the script}
shift
runs="runs/$name"
mkdir -p "$runs"

# run_once COMMAND FOLDER [FLAGS]: COMMAND (vit_small_ds_train or vit_small_ds_pretrain) with
# --output FOLDER and FLAGS, its log in FOLDER.log; nothing if FOLDER holds a finished run; on a
# failure, the log's name and exit.
run_once() {
    [ -f "$2/metrics.json" ] && return
    "$1" --output "$2" --verbose 2 "${@:3}" > "$2.log" 2>&1 || { echo "$2 failed: see $2.log"; exit 1; }
}

# keep_results: the finished runs' small files into results/NAME, and the table the pages print
keep_results() {
    python "$(dirname "${BASH_SOURCE[0]}")/keep_results.py" "$runs" "results/$name"
}
