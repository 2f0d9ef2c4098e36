//! Reading the files people give `fray`: every input file is read through [`read_text`], which
//! stops at [`MAX_INPUT`] bytes, so a huge file or a device such as `/dev/zero` gets a clear error
//! instead of filling the memory.

use std::io::Read;
use std::path::Path;

/// The largest input file `fray` reads: 8 MiB. The biggest built-in content file is some 50 kB
/// and a long saved match some 100 kB.
pub const MAX_INPUT: u64 = 8 * 1024 * 1024;

/// The text of the file at `path`, or an error naming the file: missing, a folder, larger than
/// [`MAX_INPUT`], or not UTF-8.
pub fn read_text(path: &Path) -> Result<String, String> {
    let name = path.display();
    let file = std::fs::File::open(path).map_err(|e| format!("{name}: {e}"))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(format!("{name}: is a folder, not a file"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_INPUT + 1).read_to_end(&mut bytes).map_err(|e| format!("{name}: {e}"))?;
    if bytes.len() as u64 > MAX_INPUT {
        return Err(format!("{name}: larger than {} MiB, the most Fray reads from one file", MAX_INPUT >> 20));
    }
    String::from_utf8(bytes).map_err(|e| format!("{name}: not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
}
