# Seconds per stage, for .ci/run and tests/run_all.sh (sourced by both). `stage NAME` ends the stage
# that is running and starts NAME; `stage_table` ends the last one and prints a table. The script that
# starts the timing prints the table when it exits, even on a failure; one it calls adds its stages.
if [ -z "${STAGE_FILE:-}" ]; then
    STAGE_FILE=$(mktemp)
    export STAGE_FILE
    trap 'stage_table' EXIT
fi

stage() {
    echo "$(date +%s) $*" >> "$STAGE_FILE"
    echo "== $*"
}

stage_table() {
    echo "$(date +%s) end" >> "$STAGE_FILE"
    echo
    echo "| stage | seconds |"
    echo "|---|---:|"
    awk 'NR > 1 { printf "| %s | %d |\n", name, $1 - start; total += $1 - start }
         { start = $1; $1 = ""; name = substr($0, 2) }
         END { printf "| total | %d |\n", total }' "$STAGE_FILE"
}
