"""PySpark daemon with chiplet placement (spark.python.daemon.module, set by the chiplet Spark plugin).

Written into the executor's working directory by the executor plugin, which `python -m` puts first on sys.path.
The daemon itself runs with the executor JVM's own CPU mask (not that of the pinned task thread that happened to
start it); each Python worker, for each task it serves, takes the CPUs of the JVM task thread it works for, which
the plugin puts in the task's local property spark.chiplet.task.cpus, so JVM thread and Python worker share one
chiplet's L3. Anything failing here leaves the worker where it is, and a failure before the daemon serves runs Spark's own
pyspark.daemon: PySpark runs as without the plugin. `--probe` only checks that this module and pyspark.daemon load.
"""
import os
import sys

PROPERTY = "spark.chiplet.task.cpus"
_base = None
_warned = False


def _parse_cpu_list(text):
    cpus = set()
    for part in text.strip().split(","):
        if not part:
            continue
        if "-" in part:
            low, high = part.split("-")
            cpus.update(range(int(low), int(high) + 1))
        else:
            cpus.add(int(part))
    return cpus


def _process_cpus(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("Cpus_allowed_list:"):
                return _parse_cpu_list(line.split(":", 1)[1])
    return None


def _warn(what):
    global _warned
    if not _warned:
        _warned = True
        print("chiplet: Python worker %d not placed, it runs where it is: %s" % (os.getpid(), what), file=sys.stderr)


def place():
    """Moves this worker to its task's CPUs, or back to the executor's when the task was not placed."""
    try:
        from pyspark.taskcontext import TaskContext

        context = TaskContext.get()
        wanted = context.getLocalProperty(PROPERTY) if context is not None else None
        target = _parse_cpu_list(wanted) if wanted else _base
        if target and target != os.sched_getaffinity(0):
            os.sched_setaffinity(0, target)
    except Exception as e:  # never fail a task over placement
        _warn(repr(e))


def _placing(read):
    # Worker main reads the task context (with its local properties) before the command: place then.
    def wrapper(*args, **kwargs):
        place()
        return read(*args, **kwargs)

    wrapper._chiplet = True
    return wrapper


def _worker(original):
    def worker(sock, authenticated):
        # After the fork: pyspark.worker may be imported here, as pyspark.daemon does it.
        try:
            import pyspark.worker as module

            for name in ("read_command", "read_udfs", "read_udtf"):
                read = getattr(module, name, None)
                if read is not None and not getattr(read, "_chiplet", False):
                    setattr(module, name, _placing(read))
        except Exception as e:
            _warn(repr(e))
        return original(sock, authenticated)

    return worker


def _probe():
    """What the executor plugin runs before it hands Spark this module: both imports must work here."""
    import pyspark.daemon as daemon

    if not (callable(getattr(daemon, "worker", None)) and callable(getattr(daemon, "manager", None))):
        raise SystemExit("pyspark.daemon has no worker() and manager()")
    print("chiplet-pyspark-daemon-ok")


def _spark_daemon():
    # Spark's own daemon, exactly as `python -m pyspark.daemon` runs it.
    import runpy

    runpy.run_module("pyspark.daemon", run_name="__main__", alter_sys=True)


def _main():
    global _base
    try:
        # The executor JVM's mask: its main thread is never a pinned task thread.
        _base = _process_cpus(os.getppid())
        if _base:
            os.sched_setaffinity(0, _base)
    except Exception as e:
        _base = None
        _warn(repr(e))
    try:
        import pyspark.daemon as daemon

        if not (callable(getattr(daemon, "worker", None)) and callable(getattr(daemon, "manager", None))):
            raise RuntimeError("pyspark.daemon has no worker() and manager() here")
        daemon.worker = _worker(daemon.worker)
    except Exception as e:
        # Nothing has been served yet: Spark's own daemon takes over (workers keep the executor's mask).
        _warn("running Spark's own pyspark.daemon: %r" % (e,))
        _spark_daemon()
        return
    daemon.manager()


if __name__ == "__main__":
    if sys.argv[1:] == ["--probe"]:
        _probe()
    else:
        _main()
