"""Layout models shared by several formats: how a 集释 or a 注疏 page lays out its layers, whatever the file format."""
