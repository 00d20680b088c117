//! The machine a process runs on, as logs and records name it: its Slurm
//! node's name in a task, else the kernel's host name.

/// This machine's name, if it has one.
pub fn name() -> Option<String> {
    std::env::var("SLURMD_NODENAME")
        .ok()
        .filter(|v| !v.is_empty())
        .or_else(|| {
            std::fs::read_to_string("/proc/sys/kernel/hostname")
                .ok()
                .map(|h| h.trim().to_string())
        })
}
