package innkeep

import (
	"context"
	"fmt"
	"iter"
	"net/url"
	"reflect"
	"strings"
	"time"
)

// op is one row of the generated operation table.
type op struct {
	id, method, path string
	pathParams       []string
}

// expand fills the path parameters, each non-empty and escaped.
func (o op) expand(ids []string) (string, error) {
	path := o.path
	for i, name := range o.pathParams {
		if ids[i] == "" {
			return "", fmt.Errorf("innkeep: %s: %s must be a non-empty string", o.id, name)
		}
		path = strings.Replace(path, "{"+name+"}", url.PathEscape(ids[i]), 1)
	}
	return path, nil
}

// call is one operation: GET and DELETE send params as the query, the others as the body.
func call[T any](ctx context.Context, c *Client, o op, ids []string, params any, opts []RequestOption) (*T, error) {
	path, err := o.expand(ids)
	if err != nil {
		return nil, err
	}
	out := new(T)
	var query url.Values
	var body any
	if o.method == "GET" || o.method == "DELETE" {
		query = encodeQuery(params)
	} else if !isNil(params) {
		body = params
	}
	if err := c.Do(ctx, o.method, path, query, body, out, opts...); err != nil {
		return nil, err
	}
	return out, nil
}

// callBytes is an operation that answers a file (an invoice's PDF): its bytes as they came.
func callBytes(ctx context.Context, c *Client, o op, ids []string, params any, opts []RequestOption) ([]byte, error) {
	out, err := call[[]byte](ctx, c, o, ids, params, opts)
	if err != nil {
		return nil, err
	}
	return *out, nil
}

func listPage[T any](ctx context.Context, c *Client, o op, ids []string, params any, opts []RequestOption) (*Page[T], error) {
	path, err := o.expand(ids)
	if err != nil {
		return nil, err
	}
	return ListPage[T](ctx, c, path, encodeQuery(params), opts...)
}

func listAll[T any](ctx context.Context, c *Client, o op, ids []string, params any, opts []RequestOption) iter.Seq2[T, error] {
	path, err := o.expand(ids)
	if err != nil {
		return func(yield func(T, error) bool) {
			var zero T
			yield(zero, err)
		}
	}
	return ListAutoPaging[T](ctx, c, path, encodeQuery(params), opts...)
}

func isNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

// encodeQuery turns a generated ...Params struct (its `form` tags) into a query.
func encodeQuery(params any) url.Values {
	q := url.Values{}
	if isNil(params) {
		return q
	}
	v := reflect.Indirect(reflect.ValueOf(params))
	for i := range v.NumField() {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("form"), ",")
		field := v.Field(i)
		if name == "" || name == "-" || (field.Kind() == reflect.Pointer && field.IsNil()) {
			continue
		}
		field = reflect.Indirect(field)
		if field.Kind() == reflect.Slice {
			for j := range field.Len() {
				q.Add(name, queryValue(field.Index(j)))
			}
			continue
		}
		q.Set(name, queryValue(field))
	}
	return q
}

func queryValue(v reflect.Value) string {
	switch x := v.Interface().(type) {
	case time.Time:
		return x.Format(time.RFC3339)
	case fmt.Stringer:
		return x.String()
	}
	return fmt.Sprint(v.Interface())
}
