//! Reading and writing safetensors files: named little-endian arrays with
//! a string-to-string metadata header, the format of both the weights
//! ([`crate::neural::NetEvaluator::save`]) and the training examples
//! ([`crate::neural::data`]). numpy reads them with the `safetensors`
//! package, or by hand: 8 bytes of header length, the JSON header, the
//! data.
//!
//! Files are written whole to a temporary name beside the target and
//! renamed, so a killed writer leaves no half-written file.

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
/// renamed).
///
/// # Errors
/// One line naming the file when it cannot be written.
pub fn write(
    path: &Path,
    arrays: &[Array],
    metadata: HashMap<String, String>,
) -> Result<(), String> {
    let bytes = safetensors::serialize(arrays.iter().map(|a| (a.name.clone(), a)), Some(metadata))
        .map_err(|e| format!("{}: cannot encode safetensors: {e}", path.display()))?;
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, &bytes).map_err(|e| format!("{}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{}: {e}", path.display()))
}

/// A safetensors file read whole.
pub struct File {
    path: String,
    bytes: Vec<u8>,
}

impl File {
    /// Read `path`.
    ///
    /// # Errors
    /// One line naming the file when it cannot be read or is not
    /// safetensors.
    pub fn read(path: &Path) -> Result<File, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = File {
            path: path.display().to_string(),
            bytes,
        };
        file.parsed()?;
        Ok(file)
    }

    fn parsed(&self) -> Result<SafeTensors<'_>, String> {
        SafeTensors::deserialize(&self.bytes)
            .map_err(|e| format!("{}: not a safetensors file ({e})", self.path))
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

    fn view(&self, name: &str, dtype: Dtype) -> Result<(Vec<usize>, Vec<u8>), String> {
        let t = self.parsed()?;
        let v = t
            .tensor(name)
            .map_err(|_| format!("{}: no array `{name}`", self.path))?;
        if v.dtype() != dtype {
            return Err(format!(
                "{}: array `{name}` is {:?}, not {dtype:?}",
                self.path,
                v.dtype()
            ));
        }
        Ok((v.shape().to_vec(), v.data().to_vec()))
    }

    /// An `f32` array: its shape and elements.
    ///
    /// # Errors
    /// One line when the array is missing or of another type.
    pub fn f32(&self, name: &str) -> Result<(Vec<usize>, Vec<f32>), String> {
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
    pub fn u32(&self, name: &str) -> Result<(Vec<usize>, Vec<u32>), String> {
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
    pub fn u8(&self, name: &str) -> Result<(Vec<usize>, Vec<u8>), String> {
        self.view(name, Dtype::U8)
    }
}
