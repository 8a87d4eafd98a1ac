//! GCN 1.0-1.4 instruction tables, decoder, encoder and printer.
