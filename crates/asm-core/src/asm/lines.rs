//! Line reading: the next logical line from the frame stack (files, macro
//! bodies, repetitions), comments and continuation lines, and the end of a
//! frame (its conditionals, the next iteration).

use super::*;

/// The size a streamed source is read in (whole lines).
pub(crate) const STREAM_PIECE: usize = 1 << 20;

/// Whether the text `b`, whose last line has no line end, ends with a
/// continuation backslash (carriage returns after it ignored).
#[inline]
fn ends_continued(b: &[u8]) -> bool {
    let mut e = b.len();
    while e > 0 && b[e - 1] == b'\r' {
        e -= 1;
    }
    e > 0 && b[e - 1] == b'\\'
}

impl Assembler {
    /// Fetch the next logical line into `self.line`. Returns false at the end.
    pub(crate) fn next_line(&mut self) -> bool {
        loop {
            let Some(fr) = self.frames.last_mut() else {
                return false;
            };
            if fr.pos >= fr.text.len() {
                if self.frames.len() == 1 && self.stream.is_some() && self.refill() {
                    continue;
                }
                self.end_frame();
                if self
                    .deferred
                    .last()
                    .is_some_and(|d| d.0 == self.frames.len())
                {
                    // The statements after a macro call (or `.endr`, an
                    // include) on its line come after the expansion.
                    if let Some((_, line, semi)) = self.deferred.pop() {
                        self.line = line;
                        self.line_semi = semi;
                        return true;
                    }
                }
                continue;
            }
            let text = fr.text.clone();
            let b = text.as_bytes();
            let start = fr.pos;
            // Most lines have no string, quote or comment: one pass finds
            // their end; the others are scanned again, by `scan_simple`.
            let plain_end = if fr.in_comment {
                None
            } else {
                plain_line_end(b, start).filter(|&e| !ends_continued(&b[start..e]))
            };
            let end = plain_end.unwrap_or_else(|| lex::find_newline(b, start));
            fr.pos = end + 1;
            let line_no = match &fr.line_map {
                Some(body) => {
                    let l = body.lines.get(fr.body_idx).copied().unwrap_or(0);
                    fr.body_idx += 1;
                    l
                }
                None => {
                    let l = fr.line;
                    fr.line += 1;
                    l
                }
            };
            let (file, ctx) = (fr.file, fr.ctx);
            let slash = self.opts.slash_comments;
            let semi = self.opts.semicolon_comments;
            let simple = match plain_end {
                Some(e) => Some((e - start, false)),
                None => scan_simple(&b[start..end], fr.in_comment, slash, semi),
            };
            match simple {
                Some((cut, semi)) => {
                    self.line_semi = semi;
                    self.line = LineCtx {
                        text,
                        start,
                        end: start + cut,
                        file,
                        line: line_no,
                        ctx,
                        loc: None,
                    };
                }
                None => {
                    self.line_semi = true;
                    self.irregular += 1;
                    let s = self.clean_complex(start, end);
                    let len = s.len();
                    self.line = LineCtx {
                        text: Rc::from(s),
                        start: 0,
                        end: len,
                        file,
                        line: line_no,
                        ctx,
                        loc: None,
                    };
                }
            }
            return true;
        }
    }

    /// Reads the next piece of a streamed source into the base frame: whole
    /// lines, at least [`STREAM_PIECE`] bytes unless the source ends, never
    /// ending inside a continued line (`\\` at the end, joined by
    /// [`Assembler::clean_complex`]). False at the end of the source (or on
    /// a read error or a byte that is not UTF-8, reported).
    pub(crate) fn refill(&mut self) -> bool {
        let Some(src) = self.stream.as_mut() else {
            return false;
        };
        // Whole buffers of the reader (not line by line), cut after the
        // last newline once the piece is big enough; the piece is copied
        // once, into the text lines refer to.
        let (len, err) = src.read_piece(STREAM_PIECE, ends_continued);
        let failed = err.map(|e| format!("reading the source: {e}"));
        let line = self.frames[0].line;
        let bytes = src.bytes(len);
        let text: Rc<str> = match std::str::from_utf8(bytes) {
            Ok(t) => Rc::from(t),
            Err(e) => {
                // Where the bad byte is: its line, as a position of its own.
                let bad = e.valid_up_to();
                let start = bytes[..bad]
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .map_or(0, |p| p + 1);
                let n = bytes[..start].iter().filter(|&&c| c == b'\n').count() as u32;
                let end = lex::find_newline(bytes, start);
                let text: Rc<str> = Rc::from(String::from_utf8_lossy(&bytes[start..end]).as_ref());
                self.locs.push(Loc {
                    end: text.len(),
                    text,
                    start: 0,
                    file: self.frames[0].file,
                    line: line + n,
                    ctx: 0,
                });
                let pos = Pos {
                    loc: (self.locs.len() - 1) as u32,
                    col: (bad - start + 1) as u32,
                };
                self.report(Severity::Error, pos, "not UTF-8 text".into());
                self.stream = None;
                return false;
            }
        };
        src.drop_front(len);
        if let Some(msg) = failed {
            let pos = self.cur_pos(0);
            self.report(Severity::Error, pos, msg);
            self.stream = None;
        }
        if text.is_empty() {
            self.stream = None;
            return false;
        }
        let fr = &mut self.frames[0];
        fr.text = text;
        fr.pos = 0;
        true
    }

    /// Build a cleaned line: block comments blanked, continuation lines joined.
    pub(crate) fn clean_complex(&mut self, mut start: usize, mut end: usize) -> String {
        let slash = self.opts.slash_comments;
        let semi_comments = self.opts.semicolon_comments;
        let mut out: Vec<u8> = Vec::new();
        let Some(fr) = self.frames.last_mut() else {
            return String::new();
        };
        let text = fr.text.clone();
        let b = text.as_bytes();
        let mut joins = 0;
        loop {
            let line = &b[start..end];
            let mut i = 0;
            let mut cont = false;
            while i < line.len() {
                if fr.in_comment {
                    match find2(&line[i..], b'*', b'/') {
                        Some(p) => {
                            out.extend(std::iter::repeat_n(b' ', p + 2));
                            i += p + 2;
                            fr.in_comment = false;
                        }
                        None => {
                            i = line.len();
                        }
                    }
                    continue;
                }
                let c = line[i];
                match c {
                    b'"' => {
                        let e = lex::skip_string(line, i);
                        out.extend_from_slice(&line[i..e]);
                        i = e;
                    }
                    b'\'' => {
                        let e = lex::skip_char_lit(line, i);
                        out.extend_from_slice(&line[i..e]);
                        i = e;
                    }
                    b'#' if !semi_comments || line[..i].iter().all(|&x| lex::is_space(x)) => break,
                    b';' if semi_comments => break,
                    b'/' if line.get(i + 1) == Some(&b'/') && slash => break,
                    b'/' if line.get(i + 1) == Some(&b'*') => {
                        fr.in_comment = true;
                        out.extend_from_slice(b"  ");
                        i += 2;
                    }
                    b'\\' if line[i + 1..].iter().all(|&c| c == b'\r') => {
                        cont = true;
                        i = line.len();
                    }
                    _ => {
                        out.push(c);
                        i += 1;
                    }
                }
            }
            if cont && fr.pos < b.len() && joins < 10_000 {
                joins += 1;
                start = fr.pos;
                end = b[start..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| start + p);
                fr.pos = end + 1;
                if fr.line_map.is_some() {
                    fr.body_idx += 1;
                } else {
                    fr.line += 1;
                }
                continue;
            }
            break;
        }
        String::from_utf8(out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    pub(crate) fn end_frame(&mut self) {
        let Some(fr) = self.frames.last_mut() else {
            return;
        };
        if let FrameKind::Repeat(rep) = &mut fr.kind {
            rep.iter += 1;
            let iter = rep.iter;
            let cond_depth = fr.cond_depth;
            // unbalanced conditionals inside one iteration
            self.close_conds(cond_depth, true);
            self.lines_done += 1;
            if self.lines_done > self.opts.max_lines {
                let p = self.cur_pos(0);
                self.report(
                    Severity::Error,
                    p,
                    "line limit exceeded (endless repetition or recursion?)".into(),
                );
                self.ended = true;
                self.frames.pop();
                return;
            }
            if let Some(text) = self.next_iteration(iter) {
                if let Some(fr) = self.frames.last_mut() {
                    fr.text = text;
                    fr.pos = 0;
                    fr.body_idx = 0;
                    fr.in_comment = false;
                }
                return;
            }
            self.frames.pop();
            return;
        }
        let depth = fr.cond_depth;
        self.close_conds(depth, true);
        self.frames.pop();
    }

    /// Pop conditionals opened above `depth`, reporting them if `report`.
    pub(crate) fn close_conds(&mut self, depth: usize, report: bool) {
        while self.conds.len() > depth {
            if let Some(c) = self.conds.pop() {
                if report {
                    self.report(
                        Severity::Error,
                        c.pos,
                        "unterminated '.if' (missing '.endif')".into(),
                    );
                }
            }
        }
    }

    /// Compute the text of iteration `iter` of the repeat frame on top of
    /// the stack, or None when the repetition is over.
    pub(crate) fn next_iteration(&mut self, iter: u64) -> Option<Rc<str>> {
        let fr = self.frames.last()?;
        let FrameKind::Repeat(rep) = &fr.kind else {
            return None;
        };
        match &rep.mode {
            RepMode::Rept(n) => (iter < *n).then(|| rep.shared.clone()),
            RepMode::Irp { name, values } => {
                let v = values.get(iter as usize)?;
                let text = crate::macros::substitute(
                    &rep.body.text,
                    &[name.as_str()],
                    std::slice::from_ref(v),
                    0,
                    false,
                    &[],
                );
                Some(Rc::from(text))
            }
            RepMode::For {
                sym,
                cond,
                next,
                line,
            } => {
                let (sym, cond, next, line) = (*sym, *cond, *next, line.clone());
                let shared = rep.shared.clone();
                let saved = std::mem::replace(&mut self.line, line);
                let t = self.line.text.clone();
                let base = self.line.start;
                // x = next
                let ntext = &t[base + next.0..base + next.1];
                let mut c = Cursor::new(ntext);
                let mut ok = false;
                if let Some(v) = self.abs_or_rel_expr(&mut c) {
                    self.set_symbol_state(sym, SymState::Value(v));
                    let ctext = &t[base + cond.0..base + cond.1];
                    let mut c = Cursor::new(ctext);
                    ok = self.abs_expr(&mut c).is_some_and(|v| v != 0);
                }
                self.line = saved;
                ok.then_some(shared)
            }
            RepMode::While { cond, line } => {
                let (cond, line) = (*cond, line.clone());
                let shared = rep.shared.clone();
                self.eval_saved_cond(line, cond).then_some(shared)
            }
        }
    }
}

pub(crate) fn find2(b: &[u8], a: u8, c: u8) -> Option<usize> {
    b.windows(2).position(|w| w[0] == a && w[1] == c)
}

/// The bytes [`scan_simple`] stops at: strings, character literals and
/// comments start there.
const SIMPLE_STOPS: &[u8] = b"\"'#/;";

/// [`SIMPLE_STOPS`] as [`lex::skip_until`] patterns: `"` `#` `'` (and `&`)
/// as 0x22 with bits 0 and 2 ignored; `/` `;` (and `+` `?`) as 0x2b with
/// bits 2 and 4 ignored.
const SIMPLE_PATS: [(u8, u8); 2] = [(0x05, 0x22), (0x14, 0x2b)];
const _: () = assert!(lex::covers(SIMPLE_STOPS, &SIMPLE_PATS));

/// The end of the line at `start` (its `\n`, or the end of `b`) when the
/// line has none of the bytes [`scan_simple`] looks at ([`SIMPLE_STOPS`]):
/// such a line is all statement text, whatever the comment options.
#[inline]
fn plain_line_end(b: &[u8], start: usize) -> Option<usize> {
    static STOP: [bool; 256] = {
        let mut t = lex::stop_table(SIMPLE_STOPS);
        t[b'\n' as usize] = true;
        t
    };
    const PATS: &[(u8, u8)] = &[SIMPLE_PATS[0], SIMPLE_PATS[1], (0, b'\n')];
    const _: () = assert!(lex::covers(b"\n", PATS));
    let i = lex::skip_until(b, start, &STOP, PATS);
    match b.get(i) {
        None | Some(b'\n') => Some(i),
        Some(_) => None,
    }
}

/// Scans a line for what needs the slow path (block comments, continuation
/// lines): `None`; else the length without a `#`/`//` comment and whether
/// it holds a `;`.
#[inline]
pub(crate) fn scan_simple(
    b: &[u8],
    in_comment: bool,
    slash: bool,
    semi_comment: bool,
) -> Option<(usize, bool)> {
    if in_comment {
        return None;
    }
    static STOP: [bool; 256] = lex::stop_table(SIMPLE_STOPS);
    let mut semi = false;
    let mut i = 0;
    loop {
        i = lex::skip_until(b, i, &STOP, &SIMPLE_PATS);
        if i >= b.len() {
            break;
        }
        match b[i] {
            b'"' => {
                i = lex::skip_string(b, i);
                continue;
            }
            b'\'' => {
                i = lex::skip_char_lit(b, i);
                continue;
            }
            b'#' if !semi_comment || b[..i].iter().all(|&x| lex::is_space(x)) => {
                return Some((i, semi))
            }
            b';' if semi_comment => return Some((i, false)),
            b';' => semi = true,
            b'/' => match b.get(i + 1) {
                Some(b'*') => return None,
                Some(b'/') if slash => return Some((i, semi)),
                _ => {}
            },
            _ => {}
        }
        i += 1;
    }
    if ends_continued(b) {
        return None;
    }
    Some((b.len(), semi))
}
