package load

import (
	"path"
	"runtime"
	"strings"
	"sync"

	"github.com/bflint/bflint/parser/source"
	"github.com/bflint/bflint/parser/sqlparse"
	"github.com/bflint/bflint/rules"
)

// definingFile is a streamed SQL file that may define versions, with the
// parse that reads it.
type definingFile struct {
	sf    *rules.SQLFile
	parse func() *sqlparse.File
}

// mayDefineVersions reports whether SQL text can hold a LEAD() call, the
// only way DayBeforeNext defines a version's end: most files have none and
// are not read for definitions at all (lead_source and leads are no call).
func mayDefineVersions(content []byte) bool {
	for i := 0; i+4 < len(content); i++ {
		if content[i]|0x20 != 'l' || content[i+1]|0x20 != 'e' || content[i+2]|0x20 != 'a' || content[i+3]|0x20 != 'd' {
			continue
		}
		j := i + 4
		for j < len(content) && (content[j] == ' ' || content[j] == '\t' || content[j] == '\n' || content[j] == '\r') {
			j++
		}
		if j < len(content) && content[j] == '(' {
			return true
		}
	}
	return false
}

// definitions reads what the run's SQL files say about the relations they
// build. Parsed files are read as they are; a streamed file that may
// define versions is parsed here, and its parse kept for its own rules,
// which run first (rules.Run). vars are the dbt vars each file reads, as
// the load found them.
func definitions(units []*rules.Unit, streamed []definingFile, vars map[*source.File][]string) *rules.Definitions {
	defs := &rules.Definitions{}
	seen := map[string]bool{}
	add := func(sf *rules.SQLFile, f *sqlparse.File) {
		if seen[sf.Source.Name] {
			return
		}
		seen[sf.Source.Name] = true
		model := strings.TrimSuffix(path.Base(sf.Source.Name), path.Ext(sf.Source.Name))
		for _, st := range f.Statements {
			cols := st.DayBeforeNext()
			if len(cols) == 0 {
				continue
			}
			defs.AddInclusiveEnds(model, cols)
			if rel, ok := st.Defines(); ok {
				defs.AddInclusiveEnds(rel.Parts[len(rel.Parts)-1], cols)
			}
		}
	}
	for _, u := range units {
		for _, sf := range u.SQL {
			if sf.Parsed != nil && mayDefineVersions(sf.Source.Content) {
				add(sf, sf.Parsed)
			}
			if names, ok := vars[sf.Source]; ok {
				model := strings.TrimSuffix(path.Base(sf.Source.Name), path.Ext(sf.Source.Name))
				defs.AddModelVars(model, names)
			}
		}
	}
	// Every unit waits for these parses: they run on all processors, and
	// each is kept for its unit's rules, which run first (rules.Run), so
	// that it is parsed once and held briefly. What add records is a set.
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan definingFile)
	for range min(runtime.GOMAXPROCS(0), len(streamed)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range next {
				d.sf.Parsed = d.parse()
				mu.Lock()
				add(d.sf, d.sf.Parsed)
				mu.Unlock()
			}
		}()
	}
	for _, d := range streamed {
		next <- d
	}
	close(next)
	wg.Wait()
	return defs
}
