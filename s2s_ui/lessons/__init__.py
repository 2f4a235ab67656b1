"""The lessons in the app: the lesson bar above a page, the tour of each page, the course from Home."""
