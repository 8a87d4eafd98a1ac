//! The option syntax every `risa` command shares: `--name value`,
//! `--name=value`, short flags, and free words (input files).

/// Walks command-line words, splitting `--name=value`.
pub(crate) struct Opts<'a> {
    it: std::slice::Iter<'a, String>,
}

impl<'a> Opts<'a> {
    pub(crate) fn new(args: &'a [String]) -> Self {
        Opts { it: args.iter() }
    }

    /// The next word: the flag (or free word) and the value written after `=`.
    pub(crate) fn next_flag(&mut self) -> Option<(&'a str, Option<String>)> {
        let x = self.it.next()?;
        Some(match x.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (x.as_str(), None),
        })
    }

    /// The value of flag `name`: the inline one, else the next word.
    pub(crate) fn value(&mut self, inline: Option<String>, name: &str) -> Result<String, String> {
        inline
            .or_else(|| self.it.next().cloned())
            .ok_or(format!("{name} needs a value"))
    }
}
