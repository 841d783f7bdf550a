package diff

import "strings"

// mdNeutral keeps a pull-request comment from acting on anyone (issue 35,
// point 9): text from the agent's files or the repository must not
// notify people (@mentions, also inside HTML blocks, where GitHub still
// links them), become links (bare URLs, www. and e-mail autolinks) or
// strike text through (~~…~~). A zero-width space, written as an entity,
// breaks the mention and the autolink where they are recognised; a tilde
// is written as an entity, which is never a delimiter. Applied last, to
// text already escaped for its context (mdEscape, htmlEscape).
var mdNeutral = strings.NewReplacer(
	"@", "@&#8203;",
	"://", "&#8203;://",
	"www.", "www&#8203;.",
	"WWW.", "WWW&#8203;.",
	"~", "&#126;",
).Replace
