//! A source read as a stream ([`Assembler::assemble_reader`],
//! [`Assembler::assemble_file`]): buffered reading, and passing over the
//! text of lines another assembler read ([`Assembler::take_plain_lines`]).

use std::io::{BufRead, BufReader};

/// A streamed source and the buffer its pieces are read into.
pub(crate) struct Source {
    reader: Box<dyn Stream>,
    /// Where the pieces are read, straight from the reader: reads this big
    /// skip a `BufReader`'s own buffer, so a file's bytes are not copied
    /// through it first. Kept from one piece to the next (zeroed once).
    buf: Vec<u8>,
    /// Bytes at the start of `buf` read already: what followed the last
    /// piece's last line end.
    carry: usize,
}

impl Source {
    pub(crate) fn new(reader: Box<dyn Stream>) -> Source {
        Source {
            reader,
            buf: Vec::new(),
            carry: 0,
        }
    }

    /// Reads on until the bytes read hold at least `min` bytes of whole
    /// lines, the last not continued (`ends_continued`), or the source
    /// ends: returns how many bytes the piece has ([`Source::bytes`]) and
    /// the read error that ended it early, if one did.
    pub(crate) fn read_piece(
        &mut self,
        min: usize,
        ends_continued: fn(&[u8]) -> bool,
    ) -> (usize, Option<std::io::Error>) {
        if self.buf.is_empty() {
            self.buf = vec![0; min + (64 << 10)];
        }
        let mut have = self.carry;
        loop {
            if have == self.buf.len() {
                // (A line longer than the buffer.)
                self.buf.resize(2 * self.buf.len(), 0);
            }
            match self.reader.read(&mut self.buf[have..]) {
                Ok(0) => break,
                Ok(n) => have += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.carry = have;
                    return (have, Some(e));
                }
            }
            if have >= min {
                if let Some(p) = self.buf[..have].iter().rposition(|&c| c == b'\n') {
                    if !ends_continued(&self.buf[..p]) {
                        self.carry = have;
                        return (p + 1, None);
                    }
                }
            }
        }
        self.carry = have;
        (have, None)
    }

    /// The first `n` bytes read (a piece [`Source::read_piece`] found).
    pub(crate) fn bytes(&self, n: usize) -> &[u8] {
        &self.buf[..n]
    }

    /// Drops the first `n` bytes read (a piece that was taken).
    pub(crate) fn drop_front(&mut self, n: usize) {
        self.buf.copy_within(n..self.carry, 0);
        self.carry -= n;
    }

    /// Goes on `n` bytes further in the source (past the bytes read first).
    pub(crate) fn pass(&mut self, n: u64) -> std::io::Result<()> {
        let k = self.carry.min(usize::try_from(n).unwrap_or(usize::MAX));
        self.drop_front(k);
        self.reader.pass(n - k as u64)
    }
}

/// The rest of a streamed source.
pub(crate) trait Stream: BufRead {
    /// Goes on `n` bytes further in the source without reading them here;
    /// any reader reads and drops them.
    fn pass(&mut self, mut n: u64) -> std::io::Result<()> {
        while n > 0 {
            let k = self.fill_buf()?.len().min(n as usize);
            if k == 0 {
                break;
            }
            self.consume(k);
            n -= k as u64;
        }
        Ok(())
    }
}

impl Stream for Box<dyn BufRead> {}

/// A file: what is passed over is not read at all (a seek), the cost a
/// parallel assembly saves for the lines its workers read.
impl Stream for BufReader<std::fs::File> {
    fn pass(&mut self, n: u64) -> std::io::Result<()> {
        let n = i64::try_from(n).map_err(std::io::Error::other)?;
        self.seek_relative(n)
    }
}
