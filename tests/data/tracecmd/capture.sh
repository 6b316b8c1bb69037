#!/bin/bash
# Makes the tracecmd fixtures: one capture in a tracefs instance of its
# own (other captures on the top-level buffer are not disturbed), read
# three ways from the same buffer: the kernel's text (`cat trace`), a
# trace.dat v7 (`trace-cmd extract`, zstd-compressed as Debian's
# trace-cmd writes it) and the same converted to v6. Needs root and
# tracefs at /sys/kernel/tracing. Usage: capture.sh OUTDIR
set -eu
out=${1:?usage: capture.sh OUTDIR}
name=tp-fixtures
t=/sys/kernel/tracing
i=$t/instances/$name

mkdir "$i"
# (trace-cmd extract -B removes the instance it read)
trap 'if [ -d "$i" ]; then echo 0 > "$i/tracing_on"; rmdir "$i"; fi' EXIT
echo 0 > "$i/tracing_on"
echo 256 > "$i/buffer_size_kb"
for e in sched/sched_switch sched/sched_waking sched/sched_wakeup_new sched/sched_process_fork \
         sched/sched_process_exec sched/sched_process_exit sched/sched_process_free \
         task/task_newtask task/task_rename irq/irq_handler_entry irq/irq_handler_exit \
         irq/softirq_entry irq/softirq_exit; do
  echo 1 > "$i/events/$e/enable"
done
echo > "$i/trace"

# The workload: two shells writing atrace markers (B/E slices, a C
# counter, S/F async slices) to the instance's own trace_marker, with
# short sleeps between them (sched switches, wakeups, timer irqs).
worker() {
  local pid=$1 n
  exec 3> "$i/trace_marker"
  for n in 1 2 3 4 5 6 7 8; do
    echo "B|$pid|frame $n" >&3
    echo "C|$pid|queued|$n" >&3
    echo "S|$pid|io|$((pid * 10 + n))" >&3
    echo "B|$pid|draw" >&3
    sleep 0.003
    echo "E|$pid" >&3
    echo "F|$pid|io|$((pid * 10 + n))" >&3
    echo "E|$pid" >&3
    sleep 0.002
  done
  exec 3>&-
}

echo 1 > "$i/tracing_on"
bash -c "$(declare -f worker); i=$i; worker \$\$" &
bash -c "$(declare -f worker); i=$i; worker \$\$" &
wait
echo 0 > "$i/tracing_on"

# The text first: `trace` does not consume the buffer, extract does.
cat "$i/trace" > "$out/capture.txt"
# Without the 5 MB of /proc/kallsyms (only print's caller address needs
# it) and with the formats of the recorded systems only (extract saves
# every system's: 2 MB in an uncompressed v6): in a mount namespace of
# its own, empty files and folders hide the rest.
hide_unused='mount --bind /dev/null /proc/kallsyms && mkdir -p /tmp/tp-empty &&
  for d in /sys/kernel/tracing/events/*/ /sys/kernel/tracing/instances/*/events/*/; do
    case $(basename $d) in sched|irq|task|ftrace) ;; *) mount --bind /tmp/tp-empty $d ;; esac
  done'
unshare -m sh -c "$hide_unused && trace-cmd extract -B $name -o '$out/capture.v7.dat'" > /dev/null
trace-cmd convert --file-version 6 --compression none -i "$out/capture.v7.dat" -o "$out/capture.v6.dat" > /dev/null
