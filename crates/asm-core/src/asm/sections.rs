//! Sections and emission (the back-end API): creating and switching
//! sections, writing bytes and fills, fixups and relocations, and the data
//! fixups resolved at the end.

use super::*;

impl Assembler {
    /// Create a section (or return the existing one of that name).
    pub fn add_section(&mut self, name: &str, kind: SectionKind) -> SectionId {
        if let Some(i) = self.sections.iter().position(|s| s.name == name) {
            return SectionId(i as u32);
        }
        let flags = match kind {
            SectionKind::Code => "ax",
            SectionKind::Data | SectionKind::NoBits => "aw",
            _ => "",
        };
        self.sections.push(Section {
            name: name.to_string(),
            kind,
            flags: flags.into(),
            elf_type: None,
            align: 1,
            data: Vec::new(),
            size: 0,
            user: 0,
        });
        SectionId((self.sections.len() - 1) as u32)
    }

    /// Find a section by name.
    pub fn find_section(&self, name: &str) -> Option<SectionId> {
        self.sections
            .iter()
            .position(|s| s.name == name)
            .map(|i| SectionId(i as u32))
    }

    /// Make `id` the current section.
    pub fn switch_section(&mut self, id: SectionId) {
        if (id.0 as usize) < self.sections.len() {
            self.cur_section = id.0;
        }
    }

    /// The current section.
    pub fn current_section(&self) -> SectionId {
        self.read_context();
        SectionId(self.cur_section)
    }

    /// A section.
    pub fn section(&self, id: SectionId) -> &Section {
        &self.sections[id.0 as usize]
    }

    /// A section, mutably (e.g. to set `user` or patch bytes).
    pub fn section_mut(&mut self, id: SectionId) -> &mut Section {
        &mut self.sections[id.0 as usize]
    }

    /// All sections.
    pub fn sections(&self) -> &[Section] {
        &self.sections
    }

    /// Offset (location counter) in the current section.
    pub fn offset(&self) -> u64 {
        self.read_context();
        self.sections[self.cur_section as usize].size
    }

    /// The value of `.`: current section and offset (absolute inside an
    /// absolute section).
    pub fn here(&self) -> Value {
        self.read_context();
        let s = &self.sections[self.cur_section as usize];
        if s.kind == SectionKind::Absolute {
            Value::abs(s.size)
        } else {
            Value {
                section: Some(SectionId(self.cur_section)),
                value: s.size,
            }
        }
    }

    /// True after `.64bit` (or [`Options::bits64`]).
    pub fn is_64bit(&self) -> bool {
        self.bits64
    }

    /// Policy version set by `.policy`.
    pub fn policy(&self) -> u64 {
        self.policy
    }

    pub(crate) fn check_writable(&mut self, n: u64) -> bool {
        let lim = self.opts.max_section_size;
        let s = &self.sections[self.cur_section as usize];
        match s.kind {
            SectionKind::Config | SectionKind::Absolute if n > 0 => {
                let msg = format!("cannot put data into section '{}'", s.name);
                let p = self.cur_pos(0);
                self.report(Severity::Error, p, msg);
                false
            }
            _ => {
                if s.size.saturating_add(n) > lim {
                    let p = self.cur_pos(0);
                    self.report(Severity::Error, p, "section too big".into());
                    false
                } else {
                    true
                }
            }
        }
    }

    /// Append bytes to the current section.
    // (Inline: once per instruction, from the back end's crate; the common
    // append is a few instructions, the rest is out of line.)
    #[inline]
    pub fn emit(&mut self, bytes: &[u8]) {
        let s = &mut self.sections[self.cur_section as usize];
        if s.kind <= SectionKind::Data && s.size == s.data.len() as u64 {
            let lim = self.opts.max_section_size;
            if s.size + (bytes.len() as u64) <= lim {
                s.data.extend_from_slice(bytes);
                s.size += bytes.len() as u64;
                return;
            }
        }
        self.emit_checked(bytes);
    }

    /// [`Assembler::emit`] where the section may refuse the bytes or not
    /// hold them (too big, config or absolute, nobits).
    #[inline(never)]
    fn emit_checked(&mut self, bytes: &[u8]) {
        if !self.check_writable(bytes.len() as u64) {
            return;
        }
        let s = &mut self.sections[self.cur_section as usize];
        if s.kind == SectionKind::NoBits {
            if bytes.iter().any(|&b| b != 0) {
                let p = self.cur_pos(0);
                self.report(
                    Severity::Warning,
                    p,
                    "ignoring non-zero data in a nobits section".into(),
                );
            }
        } else {
            s.data.extend_from_slice(bytes);
        }
        let s = &mut self.sections[self.cur_section as usize];
        s.size += bytes.len() as u64;
    }

    /// Append `count` copies of `pattern` (bounded by the section size limit).
    pub fn emit_fill(&mut self, pattern: &[u8], count: u64) {
        let n = count.saturating_mul(pattern.len() as u64);
        if n == 0 {
            return;
        }
        let s = &self.sections[self.cur_section as usize];
        if s.kind == SectionKind::Absolute {
            self.sections[self.cur_section as usize].size += n;
            return;
        }
        if !self.check_writable(n) {
            return;
        }
        let s = &mut self.sections[self.cur_section as usize];
        if s.kind != SectionKind::NoBits {
            s.data.reserve(n as usize);
            if pattern.iter().all(|&b| b == 0) {
                let l = s.data.len();
                s.data.resize(l + n as usize, 0);
            } else {
                for _ in 0..count {
                    s.data.extend_from_slice(pattern);
                }
            }
        }
        s.size += n;
    }

    /// Register a fixup; the core evaluates its expression at the end and
    /// calls [`Backend::apply_fixup`].
    pub fn add_fixup(&mut self, fixup: Fixup) {
        self.open_fixups.add(self.fixups.len() as u32);
        self.fixups.push(fixup);
    }

    /// Record a relocation (see [`Relocation`]).
    pub fn add_relocation(&mut self, r: Relocation) {
        self.relocations.push(r);
    }

    /// Text printed by `.print` so far.
    pub fn printed(&self) -> &[String] {
        &self.printed
    }

    /// Write a data value of `size` bytes at `offset` (fixup resolution).
    pub(crate) fn write_data(&mut self, sec: SectionId, offset: u64, size: u8, v: Value, pos: Pos) {
        if let Some(t) = v.section {
            self.relocations.push(Relocation {
                section: sec,
                offset,
                size,
                target: t,
                addend: v.value,
            });
        } else if !fits(v.value, size) {
            self.report(
                Severity::Warning,
                pos,
                format!(
                    "value 0x{:x} truncated to {} bits",
                    v.value,
                    size as u32 * 8
                ),
            );
        }
        let data = &mut self.sections[sec.0 as usize].data;
        let off = offset as usize;
        let bytes = v.value.to_le_bytes();
        for (i, b) in bytes
            .iter()
            .chain(std::iter::repeat(&0u8))
            .take(size as usize)
            .enumerate()
        {
            if let Some(d) = data.get_mut(off + i) {
                *d = *b;
            }
        }
    }
}

/// Does `v` fit into `size` bytes as a signed or unsigned value?
pub(crate) fn fits(v: u64, size: u8) -> bool {
    if size >= 8 {
        return true;
    }
    if size == 0 {
        return v == 0;
    }
    let bits = size as u32 * 8;
    v < (1u64 << bits) || ((v as i64) < 0 && (v as i64) >= -(1i64 << (bits - 1)))
}
