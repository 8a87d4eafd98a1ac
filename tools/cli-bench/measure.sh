# Shared by tools/cli-bench/asm.sh and disasm.sh (sourced, POSIX sh):
# one command's wall time and peak RSS, medians and ratios.

# time_rss CMD...: runs CMD under /usr/bin/time -v (stdout discarded, stdin
# from $STDIN or /dev/null) and prints "SECONDS KBYTES CPU_SECONDS" (wall
# time, peak RSS, user+sys time: on a busy machine the CPU time is the one
# to compare, but a parallel tool gains in wall time only).
time_rss() {
    _t=$(mktemp)
    # (The wall time from a nanosecond clock around the run: time -v
    # gives hundredths of a second, a tenth of a 0.1 s run.)
    _start=$(date +%s%N)
    if ! /usr/bin/time -v "$@" > /dev/null 2> "$_t" < "${STDIN:-/dev/null}"; then
        tail -3 "$_t" >&2
        rm -f "$_t"
        return 1
    fi
    _end=$(date +%s%N)
    _wall=$(awk -v s="$_start" -v e="$_end" 'BEGIN { printf "%.4f", (e - s) / 1e9 }')
    _rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$_t")
    _cpu=$(sed -n 's/.*\(User\|System\) time (seconds): //p' "$_t" | awk '{ s += $1 } END { print s }')
    rm -f "$_t"
    echo "$_wall $_rss $_cpu"
}

# median FILE COLUMN: the median of one column of numbers (1: seconds, 2: KB,
# 3: CPU seconds in time_rss's lines).
median() {
    awk -v c="$2" '{ print $c }' "$1" | sort -g |
        awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# ratio A B: A / B with two decimals ("inf" when B is 0).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }

# hex_text BIN HEX: writes BIN's bytes as llvm-mc --disassemble reads them
# (`0x12 0x34 ...`) to HEX, unless HEX is already there.
hex_text() {
    [ -s "$2" ] || od -An -v -tx1 "$1" | sed 's/ \([0-9a-f][0-9a-f]\)/ 0x\1/g' > "$2"
}
