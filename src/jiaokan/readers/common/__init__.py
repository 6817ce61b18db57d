"""Machinery every reader shares: the source file, the witness builder, the error, losslessness, 《仪礼》 facts."""
