package io.threadlab.api;

import java.util.List;

/** The contract of {@code GET /api/articles} in every variant: the page's articles and where the request ran. */
public record ArticlesReply(List<Article> articles, ApiReply.ServedBy servedBy) {
}
