"""Record and replay of provider exchanges (`--record DIR`, `--provider replay:DIR`)."""
