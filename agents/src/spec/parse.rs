//! Splitting a spec string, `name` or `name:key=value,key=value`, into
//! the agent's name and its parameters (unchecked: [`super::Params`]
//! checks them against the agent's declaration).

use super::SpecError;

/// A parsed spec: the agent's name and its `key=value` parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec<'a> {
    /// The agent's name.
    pub name: &'a str,
    /// Parameters in the order given.
    pub params: Vec<(&'a str, &'a str)>,
}

impl<'a> Spec<'a> {
    /// Split `name:key=value,...` into its parts.
    ///
    /// # Errors
    ///
    /// When a parameter is not `key=value`.
    pub fn parse(spec: &'a str) -> Result<Spec<'a>, SpecError> {
        let spec = spec.trim();
        let (name, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let mut params = Vec::new();
        for part in rest.split(',').filter(|p| !p.trim().is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| SpecError::NotKeyValue {
                spec: spec.to_string(),
                part: part.to_string(),
            })?;
            params.push((k.trim(), v.trim()));
        }
        Ok(Spec { name, params })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_with_parameters() {
        let s = Spec::parse("mcts:iterations=2000, c=0.7").unwrap();
        assert_eq!(s.name, "mcts");
        assert_eq!(s.params, vec![("iterations", "2000"), ("c", "0.7")]);
        assert_eq!(
            Spec::parse("mcts:iterations").unwrap_err().to_string(),
            "agent \"mcts:iterations\": parameter \"iterations\" is not key=value"
        );
    }
}
