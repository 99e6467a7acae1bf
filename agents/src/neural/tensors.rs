//! Reading and writing safetensors files: named little-endian arrays with
//! a string-to-string metadata header, the format of both the weights
//! ([`crate::neural::NetEvaluator::save`]) and the training examples
//! ([`crate::neural::data`]). numpy reads them with the `safetensors`
//! package, or by hand: 8 bytes of header length, the JSON header, the
//! data.
//!
//! Files are written whole to a temporary name beside the target and
//! renamed, so a killed writer leaves no half-written file.

use super::error::{FileError, InputError};
use crate::capped::Cap;
use safetensors::{Dtype, SafeTensors};
use std::collections::HashMap;
use std::path::Path;

/// One named array to write.
pub struct Array {
    /// Its name in the file.
    pub name: String,
    /// Its element type.
    pub dtype: Dtype,
    /// Its shape.
    pub shape: Vec<usize>,
    /// Its elements, little-endian.
    pub bytes: Vec<u8>,
}

impl Array {
    /// An `f32` array.
    pub fn f32(name: &str, shape: Vec<usize>, data: &[f32]) -> Array {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Array {
            name: name.to_string(),
            dtype: Dtype::F32,
            shape,
            bytes: data.iter().flat_map(|v| v.to_le_bytes()).collect(),
        }
    }

    /// A `u32` array.
    pub fn u32(name: &str, shape: Vec<usize>, data: &[u32]) -> Array {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Array {
            name: name.to_string(),
            dtype: Dtype::U32,
            shape,
            bytes: data.iter().flat_map(|v| v.to_le_bytes()).collect(),
        }
    }

    /// A `u8` array.
    pub fn u8(name: &str, shape: Vec<usize>, data: Vec<u8>) -> Array {
        debug_assert_eq!(shape.iter().product::<usize>(), data.len());
        Array {
            name: name.to_string(),
            dtype: Dtype::U8,
            shape,
            bytes: data,
        }
    }
}

impl safetensors::View for &Array {
    fn dtype(&self) -> Dtype {
        self.dtype
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> std::borrow::Cow<'_, [u8]> {
        std::borrow::Cow::Borrowed(&self.bytes)
    }
    fn data_len(&self) -> usize {
        self.bytes.len()
    }
}

/// Write `arrays` and `metadata` to `path` (atomically: a temporary file
/// renamed), gzip-compressed when `path` ends in `.gz` (how example shards
/// are written: `game-NNNNNNN.safetensors.gz`; [`File::read`] takes both).
///
/// The bytes depend only on the arrays and the metadata, never on the
/// iteration order of the map: see [`encode`].
///
/// # Errors
/// One line naming the file when it cannot be written.
pub fn write(
    path: &Path,
    arrays: &[Array],
    metadata: HashMap<String, String>,
) -> Result<(), FileError> {
    let name = path.display();
    let mut bytes = encode(arrays, &metadata).map_err(|e| FileError::format(&name, e))?;
    if path.extension().is_some_and(|x| x == "gz") {
        bytes = gzip(&bytes).map_err(|e| FileError::io(&name, e))?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, &bytes).map_err(|e| FileError::io(&tmp.display(), e))?;
    std::fs::rename(&tmp, path).map_err(|e| FileError::io(&name, e))
}

/// The safetensors bytes of `arrays` and `metadata`, byte-deterministic.
///
/// The documented layout: 8 bytes of little-endian header length, then
/// the JSON header — `"__metadata__"` first with its keys sorted, then
/// the arrays sorted by name, each with `dtype`, `shape` and
/// `data_offsets` — padded with spaces to a multiple of 8 bytes, then the
/// arrays' bytes in the same (name) order. The `safetensors` crate writes
/// the metadata in the map's iteration order, which differs between runs;
/// hence this writer.
///
/// # Errors
/// One line when two arrays share a name or an array's byte length does
/// not match its type and shape.
pub fn encode(arrays: &[Array], metadata: &HashMap<String, String>) -> Result<Vec<u8>, InputError> {
    let json = |s: &str| serde_json::to_string(s).unwrap_or_default();
    let mut sorted: Vec<&Array> = arrays.iter().collect();
    sorted.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(w) = sorted.windows(2).find(|w| w[0].name == w[1].name) {
        return Err(InputError(format!("two arrays named `{}`", w[0].name)));
    }
    let mut header = String::from("{");
    if !metadata.is_empty() {
        let mut keys: Vec<&String> = metadata.keys().collect();
        keys.sort();
        let entries: Vec<String> = keys
            .iter()
            .map(|k| format!("{}:{}", json(k), json(&metadata[*k])))
            .collect();
        header.push_str(&format!("\"__metadata__\":{{{}}}", entries.join(",")));
    }
    let mut offset = 0usize;
    for a in &sorted {
        let elements: usize = a.shape.iter().product();
        if elements * a.dtype.bitsize() != a.bytes.len() * 8 {
            return Err(InputError(format!(
                "array `{}`: {} bytes do not hold {elements} {:?}",
                a.name,
                a.bytes.len(),
                a.dtype
            )));
        }
        let dtype = serde_json::to_string(&a.dtype).map_err(|e| InputError(e.to_string()))?;
        let shape: Vec<String> = a.shape.iter().map(usize::to_string).collect();
        if header.len() > 1 {
            header.push(',');
        }
        header.push_str(&format!(
            "{}:{{\"dtype\":{dtype},\"shape\":[{}],\"data_offsets\":[{offset},{}]}}",
            json(&a.name),
            shape.join(","),
            offset + a.bytes.len()
        ));
        offset += a.bytes.len();
    }
    header.push('}');
    while header.len() % 8 != 0 {
        header.push(' ');
    }
    let mut bytes = Vec::with_capacity(8 + header.len() + offset);
    bytes.extend_from_slice(&(header.len() as u64).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    for a in &sorted {
        bytes.extend_from_slice(&a.bytes);
    }
    Ok(bytes)
}

/// The gzip stream of `bytes` (deflate level 6, no file name or time in
/// its header: the same bytes give the same stream).
fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write as _;
    let mut z = flate2::write::GzEncoder::new(
        Vec::with_capacity(bytes.len() / 8),
        flate2::Compression::new(6),
    );
    z.write_all(bytes)?;
    z.finish()
}

/// `bytes` unzipped when they are a gzip stream (its magic number), else
/// as they are; at most `cap` bytes unzipped, so a small file cannot
/// expand without bound.
fn gunzip(bytes: Vec<u8>, cap: Cap) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    if !bytes.starts_with(&[0x1f, 0x8b]) {
        return Ok(bytes);
    }
    let mut out = Vec::with_capacity(bytes.len() * 8);
    flate2::read::GzDecoder::new(&bytes[..])
        .take(cap.bytes + 1)
        .read_to_end(&mut out)?;
    if out.len() as u64 > cap.bytes {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "unzips to more than {} bytes, the cap of {}",
                cap.bytes, cap.what
            ),
        ));
    }
    Ok(out)
}

/// A safetensors file read whole (unzipped first when it is gzip).
pub struct File {
    path: String,
    bytes: Vec<u8>,
}

impl File {
    /// Read `path`, a regular file of at most `cap` bytes
    /// ([`crate::capped::read`]: a larger file, a FIFO or a device is
    /// refused before it is read).
    ///
    /// # Errors
    /// One line naming the file when it cannot be read, is not a regular
    /// file of at most `cap` bytes, or is not safetensors.
    pub fn read(path: &Path, cap: Cap) -> Result<File, FileError> {
        let name = path.display();
        let bytes = crate::capped::read(path, cap).map_err(|e| FileError::io(&name, e))?;
        let bytes = gunzip(bytes, cap).map_err(|e| FileError::format(&name, e))?;
        let file = File {
            path: path.display().to_string(),
            bytes,
        };
        file.parsed()?;
        Ok(file)
    }

    fn parsed(&self) -> Result<SafeTensors<'_>, FileError> {
        SafeTensors::deserialize(&self.bytes)
            .map_err(|e| FileError::format(&self.path, format!("not a safetensors file ({e})")))
    }

    /// A digest of the file's bytes, unzipped (SipHash with fixed keys):
    /// equal files have equal digests, and so do a gzip file and its
    /// unzipped copy.
    pub fn digest(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        self.bytes.hash(&mut h);
        h.finish()
    }

    /// The metadata header (empty when the file has none).
    pub fn metadata(&self) -> HashMap<String, String> {
        SafeTensors::read_metadata(&self.bytes)
            .ok()
            .and_then(|(_, m)| m.metadata().clone())
            .unwrap_or_default()
    }

    /// The names of the arrays.
    pub fn names(&self) -> Vec<String> {
        self.parsed()
            .map(|t| t.names().into_iter().map(str::to_string).collect())
            .unwrap_or_default()
    }

    fn view(&self, name: &str, dtype: Dtype) -> Result<(Vec<usize>, Vec<u8>), FileError> {
        let t = self.parsed()?;
        let v = t
            .tensor(name)
            .map_err(|_| FileError::format(&self.path, format!("no array `{name}`")))?;
        if v.dtype() != dtype {
            return Err(FileError::format(
                &self.path,
                format!("array `{name}` is {:?}, not {dtype:?}", v.dtype()),
            ));
        }
        Ok((v.shape().to_vec(), v.data().to_vec()))
    }

    /// An `f32` array: its shape and elements.
    ///
    /// # Errors
    /// One line when the array is missing or of another type.
    pub fn f32(&self, name: &str) -> Result<(Vec<usize>, Vec<f32>), FileError> {
        let (shape, bytes) = self.view(name, Dtype::F32)?;
        let data = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok((shape, data))
    }

    /// A `u32` array: its shape and elements.
    ///
    /// # Errors
    /// One line when the array is missing or of another type.
    pub fn u32(&self, name: &str) -> Result<(Vec<usize>, Vec<u32>), FileError> {
        let (shape, bytes) = self.view(name, Dtype::U32)?;
        let data = bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok((shape, data))
    }

    /// A `u8` array: its shape and elements.
    ///
    /// # Errors
    /// One line when the array is missing or of another type.
    pub fn u8(&self, name: &str) -> Result<(Vec<usize>, Vec<u8>), FileError> {
        self.view(name, Dtype::U8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arrays() -> Vec<Array> {
        vec![
            Array::u8("z", vec![3], vec![1, 2, 3]),
            Array::f32("a", vec![2, 2], &[1.5, -0.0, f32::MIN_POSITIVE, 7.25]),
            Array::u32("m", vec![2], &[9, u32::MAX]),
        ]
    }

    /// A small gzip file cannot unzip past the reader's cap (a "zip
    /// bomb" of zeros); plain bytes pass through untouched.
    #[test]
    fn unzipping_stops_at_the_cap() {
        let cap = Cap {
            bytes: 1000,
            what: "a test file",
        };
        let bomb = gzip(&vec![0; 100_000]).unwrap();
        assert!(bomb.len() < 1000);
        let e = gunzip(bomb, cap).unwrap_err().to_string();
        assert!(e.contains("a test file"), "{e}");
        assert_eq!(
            gunzip(gzip(&[5; 1000]).unwrap(), cap).unwrap(),
            vec![5; 1000]
        );
        assert_eq!(gunzip(vec![1, 2, 3], cap).unwrap(), vec![1, 2, 3]);
    }

    #[test]
    fn bytes_do_not_depend_on_metadata_or_array_order() {
        let mut m1 = HashMap::new();
        let mut m2 = HashMap::new();
        let pairs: Vec<(String, String)> = (0..40)
            .map(|i| (format!("key{i}"), format!("value \"{i}\"\n")))
            .collect();
        for (k, v) in &pairs {
            m1.insert(k.clone(), v.clone());
        }
        for (k, v) in pairs.iter().rev() {
            m2.insert(k.clone(), v.clone());
        }
        let mut reversed = arrays();
        reversed.reverse();
        let a = encode(&arrays(), &m1).unwrap();
        let b = encode(&reversed, &m2).unwrap();
        assert_eq!(a, b);
        let header = u64::from_le_bytes(a[..8].try_into().unwrap()) as usize;
        assert_eq!(header % 8, 0);
        let text = std::str::from_utf8(&a[8..8 + header]).unwrap();
        assert!(text.starts_with("{\"__metadata__\":{\"key0\":"), "{text}");
    }

    #[test]
    fn the_safetensors_crate_reads_it_back_bit_exact() {
        let dir = std::env::temp_dir().join(format!("tensors-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.safetensors");
        let meta = HashMap::from([("version".to_string(), "1".to_string())]);
        write(&path, &arrays(), meta.clone()).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        let parsed = SafeTensors::deserialize(&bytes).unwrap();
        for a in arrays() {
            let t = parsed.tensor(&a.name).unwrap();
            assert_eq!(t.dtype(), a.dtype);
            assert_eq!(t.shape(), a.shape.as_slice());
            assert_eq!(t.data(), a.bytes.as_slice());
        }
        let file = File::read(&path, Cap::NET).unwrap();
        assert_eq!(file.metadata(), meta);
        let (shape, data) = file.f32("a").unwrap();
        assert_eq!(shape, vec![2, 2]);
        let bits: Vec<u32> = data.iter().map(|v| v.to_bits()).collect();
        let want: Vec<u32> = [1.5f32, -0.0, f32::MIN_POSITIVE, 7.25]
            .iter()
            .map(|v| v.to_bits())
            .collect();
        assert_eq!(bits, want);
        let loaded = candle_core::safetensors::load(&path, &candle_core::Device::Cpu).unwrap();
        let m = loaded["m"].to_vec1::<u32>().unwrap();
        assert_eq!(m, vec![9, u32::MAX]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_wrong_length_or_duplicate_name_is_refused() {
        let mut bad = arrays();
        bad[0].shape = vec![4];
        assert!(encode(&bad, &HashMap::new()).is_err());
        let mut dup = arrays();
        dup.push(Array::u8("z", vec![1], vec![0]));
        assert!(encode(&dup, &HashMap::new()).is_err());
    }
}
