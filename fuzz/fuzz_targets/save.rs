#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| fray_fuzz::save(data));
