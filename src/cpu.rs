//! Whether this CPU has the x86 features the build was compiled to assume.
//! The default build targets x86-64-v3 (`.cargo/config.toml`): on an older
//! CPU its first AVX2 or BMI2 instruction kills the process with SIGILL, so
//! each binary's `main` asks here first and refuses with a message.
//!
//! The question is answered in assembly. Code the compiler writes for this
//! crate may itself use the assumed instructions (a BMI2 shift, a VEX
//! move), even in a feature test; `asm!` is assembled as written.

/// The CPUID bits each assumed feature is read from: (leaf, register
/// index in [`Regs`] order, bit, assumed by this build).
#[cfg(target_arch = "x86_64")]
const FEATURES: &[(u32, usize, u32, bool)] = &[
    (1, 2, 0, cfg!(target_feature = "sse3")),
    (1, 2, 9, cfg!(target_feature = "ssse3")),
    (1, 2, 12, cfg!(target_feature = "fma")),
    (1, 2, 13, cfg!(target_feature = "cmpxchg16b")),
    (1, 2, 19, cfg!(target_feature = "sse4.1")),
    (1, 2, 20, cfg!(target_feature = "sse4.2")),
    (1, 2, 22, cfg!(target_feature = "movbe")),
    (1, 2, 23, cfg!(target_feature = "popcnt")),
    (1, 2, 28, cfg!(target_feature = "avx")),
    (1, 2, 29, cfg!(target_feature = "f16c")),
    (7, 1, 3, cfg!(target_feature = "bmi1")),
    (7, 1, 5, cfg!(target_feature = "avx2")),
    (7, 1, 8, cfg!(target_feature = "bmi2")),
    (0x8000_0001, 2, 5, cfg!(target_feature = "lzcnt")),
];

/// The bits `leaf`'s register `reg` must have set for this build.
#[cfg(target_arch = "x86_64")]
const fn required(leaf: u32, reg: usize) -> u32 {
    let mut mask = 0;
    let mut i = 0;
    while i < FEATURES.len() {
        let (l, r, bit, assumed) = FEATURES[i];
        if assumed && l == leaf && r == reg {
            mask |= 1 << bit;
        }
        i += 1;
    }
    mask
}

/// Leaf 1's ECX, with OSXSAVE (bit 27) when AVX is assumed: the operating
/// system must save the vector registers, which XCR0 then says.
#[cfg(target_arch = "x86_64")]
const LEAF1_ECX: u32 = required(1, 2) | (cfg!(target_feature = "avx") as u32) << 27;
#[cfg(target_arch = "x86_64")]
const LEAF7_EBX: u32 = required(7, 1);
#[cfg(target_arch = "x86_64")]
const EXT1_ECX: u32 = required(0x8000_0001, 2);
/// XCR0's SSE and AVX state bits, when AVX is assumed.
#[cfg(target_arch = "x86_64")]
const XCR0: u32 = (cfg!(target_feature = "avx") as u32) * 0b110;

/// Whether this CPU (and its operating system, for the vector registers)
/// has every feature the build assumes.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub fn supported() -> bool {
    let ok: u32;
    // SAFETY: CPUID exists on every x86-64 CPU and XGETBV is executed only
    // when CPUID says OSXSAVE is on; the asm touches only the registers it
    // declares, and puts back RBX (which LLVM reserves) from RSI. It uses
    // no memory and the stack pointer is left alone.
    unsafe {
        std::arch::asm!(
            "mov rsi, rbx",
            "xor eax, eax",
            "cpuid",
            "mov edi, eax", // the highest basic leaf
            "mov eax, 1",
            "xor ecx, ecx",
            "cpuid",
            "and ecx, r8d",
            "cmp ecx, r8d",
            "jne 3f",
            "test r9d, r9d",
            "jz 2f",
            "cmp edi, 7",
            "jb 3f",
            "mov eax, 7",
            "xor ecx, ecx",
            "cpuid",
            "and ebx, r9d",
            "cmp ebx, r9d",
            "jne 3f",
            "2:",
            "test r10d, r10d",
            "jz 4f",
            "mov eax, 0x80000000",
            "cpuid",
            "cmp eax, 0x80000001",
            "jb 3f",
            "mov eax, 0x80000001",
            "cpuid",
            "and ecx, r10d",
            "cmp ecx, r10d",
            "jne 3f",
            "4:",
            "test r11d, r11d",
            "jz 5f",
            "xor ecx, ecx",
            "xgetbv",
            "and eax, r11d",
            "cmp eax, r11d",
            "jne 3f",
            "5:",
            "mov edi, 1",
            "jmp 6f",
            "3:",
            "xor edi, edi",
            "6:",
            "mov rbx, rsi",
            in("r8d") LEAF1_ECX,
            in("r9d") LEAF7_EBX,
            in("r10d") EXT1_ECX,
            in("r11d") XCR0,
            out("edi") ok,
            out("rsi") _,
            out("eax") _,
            out("ecx") _,
            out("edx") _,
            options(nomem, preserves_flags),
        );
    }
    ok == 1
}

#[cfg(not(target_arch = "x86_64"))]
pub fn supported() -> bool {
    true
}

/// What a binary prints when [`supported`] is false: a constant, so that
/// saying it runs no code of this crate's that formats.
pub const UNSUPPORTED: &str = "this build is for x86-64-v3 CPUs (AVX2, BMI1, BMI2, FMA, LZCNT, \
MOVBE, F16C, POPCNT) and this CPU lacks some of them; `make build ARCH=x86-64` builds one for any \
x86-64 CPU (README.md \"Platforms\")\n";

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain oracle: the standard library's detection of each assumed
    /// feature (and of OSXSAVE's outcome, through `avx`).
    #[cfg(target_arch = "x86_64")]
    fn detected_by_std() -> bool {
        let has = [
            std::arch::is_x86_feature_detected!("sse3"),
            std::arch::is_x86_feature_detected!("ssse3"),
            std::arch::is_x86_feature_detected!("fma"),
            std::arch::is_x86_feature_detected!("cmpxchg16b"),
            std::arch::is_x86_feature_detected!("sse4.1"),
            std::arch::is_x86_feature_detected!("sse4.2"),
            std::arch::is_x86_feature_detected!("movbe"),
            std::arch::is_x86_feature_detected!("popcnt"),
            std::arch::is_x86_feature_detected!("avx"),
            std::arch::is_x86_feature_detected!("f16c"),
            std::arch::is_x86_feature_detected!("bmi1"),
            std::arch::is_x86_feature_detected!("avx2"),
            std::arch::is_x86_feature_detected!("bmi2"),
            std::arch::is_x86_feature_detected!("lzcnt"),
        ];
        FEATURES.iter().zip(has).all(|(f, h)| !f.3 || h)
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_assembly_agrees_with_the_standard_librarys_detection() {
        assert_eq!(supported(), detected_by_std());
        // The tests run on the CPU they were built for.
        assert!(supported());
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_masks_hold_what_the_build_assumes() {
        assert_eq!(LEAF7_EBX & (1 << 5) != 0, cfg!(target_feature = "avx2"));
        assert_eq!(LEAF1_ECX & (1 << 27) != 0, cfg!(target_feature = "avx"));
        assert_eq!(EXT1_ECX & (1 << 5) != 0, cfg!(target_feature = "lzcnt"));
    }
}
