//! A source read as a stream ([`Assembler::assemble_reader`],
//! [`Assembler::assemble_file`]): buffered reading, and passing over the
//! text of lines another assembler read ([`Assembler::take_plain_lines`]).

use std::io::{BufRead, BufReader, Read};

/// The rest of a streamed source.
pub(crate) trait Stream: BufRead {
    /// Goes on `n` bytes further in the source without reading them here.
    fn pass(&mut self, n: u64) -> std::io::Result<()>;
}

/// Any buffered reader: what is passed over is read and dropped.
pub(crate) struct Reading<R>(pub R);

impl<R: BufRead> Read for Reading<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

impl<R: BufRead> BufRead for Reading<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.0.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        self.0.consume(n)
    }
}

impl<R: BufRead> Stream for Reading<R> {
    fn pass(&mut self, mut n: u64) -> std::io::Result<()> {
        while n > 0 {
            let k = self.0.fill_buf()?.len().min(n as usize);
            if k == 0 {
                break;
            }
            self.0.consume(k);
            n -= k as u64;
        }
        Ok(())
    }
}

/// A file: what is passed over is not read at all (a seek), the cost a
/// parallel assembly saves for the lines its workers read.
impl Stream for BufReader<std::fs::File> {
    fn pass(&mut self, n: u64) -> std::io::Result<()> {
        let n = i64::try_from(n).map_err(std::io::Error::other)?;
        self.seek_relative(n)
    }
}
