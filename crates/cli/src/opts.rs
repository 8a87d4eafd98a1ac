//! The option syntax every `risa` command shares: `--name value`,
//! `--name=value`, short flags, and free words (input files).

/// Walks command-line words, splitting `--name=value`, and collects the
/// one input file.
pub(crate) struct Opts<'a> {
    it: std::slice::Iter<'a, String>,
    /// The free word (FILE or `-`), once seen.
    pub(crate) input: Option<String>,
}

impl<'a> Opts<'a> {
    pub(crate) fn new(args: &'a [String]) -> Self {
        Opts {
            it: args.iter(),
            input: None,
        }
    }

    /// The words every command treats alike: `-h`/`--help` prints `usage`
    /// and exits, another `-x` is an unknown option (`help_hint` says where
    /// to look), anything else is the input file (only one).
    pub(crate) fn other(&mut self, word: &str, usage: &str, help_hint: &str) -> Result<(), String> {
        match word {
            "-h" | "--help" => {
                print!("{usage}");
                std::process::exit(0);
            }
            f if f.starts_with('-') && f != "-" => {
                Err(format!("unknown option {f:?} (see {help_hint})"))
            }
            f => match self.input.replace(f.to_string()) {
                Some(_) => Err("more than one input file given".into()),
                None => Ok(()),
            },
        }
    }

    /// The input file, required.
    pub(crate) fn input(&mut self) -> Result<String, String> {
        self.input
            .take()
            .ok_or_else(|| "no input: give a FILE, or - for standard input".into())
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
