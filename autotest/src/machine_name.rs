//! The machine a process runs on, as logs and records name it: its Slurm
//! node's name in a task, else the kernel's host name.

/// This machine's name, if it has one.
pub fn name() -> Option<String> {
    leiserchess::lab::store::host()
}
