"""Translation lab (issue 17): a toy Korean → English grammar that generates a parallel corpus with alignments."""
