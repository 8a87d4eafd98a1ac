//! A source read as a stream ([`Assembler::assemble_reader`],
//! [`Assembler::assemble_file`]): buffered reading, and passing over the
//! text of lines another assembler read ([`Assembler::take_plain_lines`]).

use std::io::{BufRead, BufReader};

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
