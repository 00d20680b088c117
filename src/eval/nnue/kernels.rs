//! The net's two hot loops: a perspective's sums from a start row plus and
//! minus some weight rows ([`sum_rows`]), and the output layer's clipped
//! multiply-add over both perspectives ([`output`]).
//!
//! Each has a plain scalar version, the oracle, and on x86-64 an AVX2
//! version written with `std::arch`, chosen at run time
//! ([`Kernels::detect`]). Why explicit: compiled from the scalar loops, every
//! row added stores the 128 sums back to memory and reloads them; here one
//! perspective's sums stay in eight registers while all its rows are added,
//! and the clip and the multiply-add run on them in place. Both versions
//! compute in the same rings (sums wrap modulo 2¹⁶, the output modulo 2³²),
//! so they agree to the bit in any order of addition; the tests check it.

use super::{Row, HIDDEN, QA};

/// Which version of the kernels runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kernels {
    Scalar,
    /// Only built by [`Kernels::detect`] when the processor has AVX2.
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernels {
    /// The fastest version this processor runs (checked once; with the
    /// project's x86-64-v3 build the check is decided at compile time).
    #[inline]
    pub fn detect() -> Kernels {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return Kernels::Avx2;
        }
        Kernels::Scalar
    }

    /// Its name, for `bench` and the tests.
    pub fn name(self) -> &'static str {
        match self {
            Kernels::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => "avx2",
        }
    }

    /// `start + Σ table[add] − Σ table[sub]`, lane by lane, wrapping.
    ///
    /// Panics if an index is outside `table` (callers index features).
    #[inline]
    pub fn sum_rows(self, start: &Row, table: &[Row], add: &[u16], sub: &[u16]) -> Row {
        let mut out = Row([0; HIDDEN]);
        self.sum_rows_into(&mut out, start, table, add, sub);
        out
    }

    /// [`Kernels::sum_rows`] written into `out`, where a caller keeps its
    /// rows (no copy of the result).
    #[inline]
    #[allow(unsafe_code)]
    pub fn sum_rows_into(
        self,
        out: &mut Row,
        start: &Row,
        table: &[Row],
        add: &[u16],
        sub: &[u16],
    ) {
        match self {
            Kernels::Scalar => scalar::sum_rows_into(out, start, table, add, sub),
            // SAFETY: `Avx2` is only built after the processor reported AVX2.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::sum_rows_into(out, start, table, add, sub) },
        }
    }

    /// `Σ clamp(us, 0, QA) × w_us + Σ clamp(them, 0, QA) × w_them`, where
    /// `weights` holds `w_us` then `w_them`; wrapping.
    #[inline]
    #[allow(unsafe_code)]
    pub fn output(self, us: &Row, them: &Row, weights: &[i16; 2 * HIDDEN]) -> i32 {
        match self {
            Kernels::Scalar => scalar::output(us, them, weights),
            // SAFETY: as in `sum_rows_into`.
            #[cfg(target_arch = "x86_64")]
            Kernels::Avx2 => unsafe { avx2::output(us, them, weights) },
        }
    }
}

/// The oracle: one lane at a time.
pub mod scalar {
    use super::{Row, HIDDEN, QA};

    pub fn sum_rows(start: &Row, table: &[Row], add: &[u16], sub: &[u16]) -> Row {
        let mut out = Row([0; HIDDEN]);
        sum_rows_into(&mut out, start, table, add, sub);
        out
    }

    pub fn sum_rows_into(out: &mut Row, start: &Row, table: &[Row], add: &[u16], sub: &[u16]) {
        *out = *start;
        for &f in add {
            for (o, w) in out.0.iter_mut().zip(&table[usize::from(f)].0) {
                *o = o.wrapping_add(*w);
            }
        }
        for &f in sub {
            for (o, w) in out.0.iter_mut().zip(&table[usize::from(f)].0) {
                *o = o.wrapping_sub(*w);
            }
        }
    }

    pub fn output(us: &Row, them: &Row, weights: &[i16; 2 * HIDDEN]) -> i32 {
        let units = us.0.iter().chain(&them.0);
        units.zip(weights).fold(0i32, |sum, (&u, &w)| {
            sum.wrapping_add(i32::from(u.clamp(0, QA as i16)) * i32::from(w))
        })
    }
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    use super::{Row, HIDDEN, QA};
    use std::arch::x86_64::*;

    /// 256-bit registers in a row: 128 lanes of 16 bits.
    const LANES: usize = HIDDEN / 16;

    #[inline(always)]
    fn load(row: &Row) -> [__m256i; LANES] {
        // SAFETY: a `Row` is 256 bytes aligned to 64, so the eight 32-byte
        // loads stay inside it and are aligned.
        std::array::from_fn(|i| unsafe { _mm256_load_si256(row.0.as_ptr().add(16 * i).cast()) })
    }

    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn sum_rows_into(
        out: &mut Row,
        start: &Row,
        table: &[Row],
        add: &[u16],
        sub: &[u16],
    ) {
        let mut v = load(start);
        for &f in add {
            let w = load(&table[usize::from(f)]);
            for i in 0..LANES {
                v[i] = _mm256_add_epi16(v[i], w[i]);
            }
        }
        for &f in sub {
            let w = load(&table[usize::from(f)]);
            for i in 0..LANES {
                v[i] = _mm256_sub_epi16(v[i], w[i]);
            }
        }
        for (i, lanes) in v.iter().enumerate() {
            // SAFETY: as in `load`, for the 32-byte stores into `out`.
            unsafe { _mm256_store_si256(out.0.as_mut_ptr().add(16 * i).cast(), *lanes) };
        }
    }

    /// # Safety
    /// The processor must have AVX2.
    #[target_feature(enable = "avx2")]
    pub unsafe fn output(us: &Row, them: &Row, weights: &[i16; 2 * HIDDEN]) -> i32 {
        let (zero, qa) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
        let mut sum = zero;
        for (half, units) in [us, them].into_iter().enumerate() {
            let v = load(units);
            for (i, lanes) in v.into_iter().enumerate() {
                let clipped = _mm256_min_epi16(_mm256_max_epi16(lanes, zero), qa);
                // SAFETY: `weights` has 2 × HIDDEN lanes; this reads 16 of
                // them starting at HIDDEN × half + 16 × i, inside it.
                let w = unsafe {
                    _mm256_loadu_si256(weights.as_ptr().add(HIDDEN * half + 16 * i).cast())
                };
                // Pairs of 16-bit products summed into 32 bits: a clipped
                // unit is at most 255, so a pair cannot overflow.
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(clipped, w));
            }
        }
        let halves = _mm_add_epi32(
            _mm256_castsi256_si128(sum),
            _mm256_extracti128_si256::<1>(sum),
        );
        let pairs = _mm_add_epi32(halves, _mm_unpackhi_epi64(halves, halves));
        let one = _mm_add_epi32(pairs, _mm_shuffle_epi32::<0b01>(pairs));
        _mm_cvtsi128_si32(one)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::{quickcheck, TestResult};

    fn row(seed: u64) -> Row {
        let mut rng = fastrand::Rng::with_seed(seed);
        Row(std::array::from_fn(|_| rng.i16(..)))
    }

    /// The kernels this machine runs agree with the scalar oracle on random
    /// rows, extreme lanes (wrapping, clipping) and index lists included.
    fn agree(seed: u64, add: Vec<u8>, sub: Vec<u8>) -> TestResult {
        let k = Kernels::detect();
        let table: Vec<Row> = (0..256).map(|i| row(seed ^ (i << 8))).collect();
        let (add, sub): (Vec<u16>, Vec<u16>) = (
            add.into_iter().map(u16::from).collect(),
            sub.into_iter().map(u16::from).collect(),
        );
        let start = row(seed);
        let fast = k.sum_rows(&start, &table, &add, &sub);
        if fast != scalar::sum_rows(&start, &table, &add, &sub) {
            return TestResult::error(format!("{} sum_rows differs", k.name()));
        }
        let weights: [i16; 2 * HIDDEN] = std::array::from_fn(|i| table[3].0[i % HIDDEN]);
        let them = row(!seed);
        let (a, b) = (
            k.output(&fast, &them, &weights),
            scalar::output(&fast, &them, &weights),
        );
        TestResult::from_bool(a == b)
    }

    #[test]
    fn the_kernels_agree_with_the_scalar_oracle() {
        quickcheck(agree as fn(u64, Vec<u8>, Vec<u8>) -> TestResult);
    }

    #[test]
    fn the_output_sums_at_the_extremes_agree() {
        let k = Kernels::detect();
        for (u, w) in [
            (i16::MAX, i16::MAX),
            (i16::MAX, i16::MIN),
            (i16::MIN, i16::MAX),
        ] {
            let units = Row([u; HIDDEN]);
            let weights = [w; 2 * HIDDEN];
            assert_eq!(
                k.output(&units, &units, &weights),
                scalar::output(&units, &units, &weights)
            );
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn an_avx2_processor_runs_the_avx2_kernels() {
        assert_eq!(
            Kernels::detect() == Kernels::Avx2,
            std::arch::is_x86_feature_detected!("avx2")
        );
    }
}
