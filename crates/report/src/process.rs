//! This process's memory, for the front ends' memory budgets (the command
//! line's `--max-memory`, Python's `max_memory_mb=`).

/// The process's resident memory, in bytes (Linux; 0 where unknown).
pub fn resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().nth(1)?.parse::<u64>().ok())
        .map_or(0, |pages| pages * 4096)
}

/// The most resident memory the process has had, in bytes (Linux's
/// `VmHWM`; 0 where unknown): what a finished run needed, where
/// [`resident_bytes`] after it has freed its table says little.
pub fn peak_resident_bytes() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
            line.split_whitespace().nth(1)?.parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024)
}

#[cfg(test)]
mod tests {
    #[test]
    fn this_process_has_memory() {
        let v = vec![1u8; 8 << 20];
        assert!(super::resident_bytes() >= 8 << 20, "{}", v.len());
        assert!(super::peak_resident_bytes() >= super::resident_bytes() / 2);
    }
}
