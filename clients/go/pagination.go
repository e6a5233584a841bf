package innkeep

import (
	"context"
	"iter"
	"net/url"
)

// Page is one page of a cursor list, as the API answers it.
type Page[T any] struct {
	Object     string  `json:"object"`
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
	PrevCursor *string `json:"prev_cursor"`
}

// ListPage fetches one page of the list at path; query holds the filters (and cursor).
func ListPage[T any](ctx context.Context, c *Client, path string, query url.Values, opts ...RequestOption) (*Page[T], error) {
	page := new(Page[T])
	if err := c.Do(ctx, "GET", path, query, nil, page, opts...); err != nil {
		return nil, err
	}
	return page, nil
}

// ListAutoPaging yields every item of every page of the list at path, in order, following
// next_cursor with the same filters; pages are fetched lazily, one at a time. An error is
// yielded once, as the last pair.
func ListAutoPaging[T any](ctx context.Context, c *Client, path string, query url.Values, opts ...RequestOption) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		q := url.Values{}
		for k, v := range query {
			q[k] = append([]string(nil), v...)
		}
		for {
			page, err := ListPage[T](ctx, c, path, q, opts...)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range page.Data {
				if !yield(item, nil) {
					return
				}
			}
			if !page.HasMore || page.NextCursor == nil || *page.NextCursor == "" {
				return
			}
			q.Set("cursor", *page.NextCursor)
		}
	}
}
