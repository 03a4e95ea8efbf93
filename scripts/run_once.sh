# Sourced by the scripts that make a results table: one run at a time, each kept once finished.
# run_once COMMAND FOLDER [FLAGS]: COMMAND (vit_small_ds_train or vit_small_ds_pretrain) with
# --output FOLDER and FLAGS, its log in FOLDER.log; nothing if FOLDER holds a finished run; on a
# failure, the log's name and exit.
run_once() {
    [ -f "$2/metrics.json" ] && return
    "$1" --output "$2" --verbose 2 "${@:3}" > "$2.log" 2>&1 || { echo "$2 failed: see $2.log"; exit 1; }
}
