package downstream

import (
	"fmt"
	"go/token"
	"strings"

	"github.com/bflint/bflint/rules"
)

// UnnotifiedExposure reports exposures downstream of the target whose
// readers the plan does not tell.
var UnnotifiedExposure = &rules.Rule{
	Code:     "BF805",
	Name:     "unnotified-exposure",
	Severity: rules.SeverityWarning,
	Scope:    rules.ScopePlan,
	Doc: rules.Doc{
		Title: "An exposure downstream of the target is not notified",
		Why: "A backfill is done when the data is correct and the people who read it know it changed. " +
			"A dashboard or report over the corrected models shows different numbers for past periods the morning after the publish; " +
			"readers who were not told take it for a new bug, raise an incident, or keep quoting the figures they exported last month. " +
			"dbt exposures record who reads what: list each exposure downstream of the target in downstream.notify, " +
			"or the exposure's audience in communication.consumers. Its owner maintains it and is not its audience, so naming the owner does not count.",
		Bad: rules.Example{Lang: "yaml", Text: `target: model.shop.fct_orders
downstream:
  rebuild: [model.shop.revenue_daily]
# exposure.shop.finance_dashboard reads revenue_daily; nobody is told
`},
		Good: rules.Example{Lang: "yaml", Text: `target: model.shop.fct_orders
downstream:
  rebuild: [model.shop.revenue_daily]
  notify: [exposure.shop.finance_dashboard]
communication:
  consumers: [finance]
  expected_change: Net revenue in the range falls by about the value of refunds.
`},
	},
	Run: func(pass *rules.Pass) error {
		l, target := targetOf(pass)
		if target == "" {
			return nil
		}
		told := map[string]bool{}
		for _, it := range downstreamOf(pass.Plan).Notify.Items {
			told[l.id(it.V)] = true
		}
		consumers := map[string]bool{}
		if c := pass.Plan.Communication; c != nil {
			for _, s := range c.Consumers.Values() {
				consumers[strings.ToLower(strings.TrimSpace(s))] = true
			}
		}
		for _, e := range l.g.Notify(target) {
			n := l.m.Node(e)
			name := e
			if n != nil {
				name = n.Name
			}
			if told[e] || consumers[strings.ToLower(e)] || consumers[strings.ToLower(name)] {
				continue
			}
			msg := fmt.Sprintf("exposure %q shows data derived from %q, and its readers are not told: the numbers they see for past periods change without warning", e, target)
			if n != nil {
				if owner := ownerIn(n.Owner.Name, n.Owner.Email, consumers); owner != "" {
					msg += fmt.Sprintf(" (its owner %q maintains it and is not its audience)", owner)
				}
			}
			pass.Reportf(notifyPos(pass), "%s"+rules.HelpMarker+"add it to downstream.notify, or its audience to communication.consumers", msg)
		}
		return nil
	},
}

// ownerIn returns the owner's name or email when communication.consumers
// lists it, "" otherwise.
func ownerIn(name, email string, consumers map[string]bool) string {
	for _, s := range []string{name, email} {
		if s != "" && consumers[strings.ToLower(s)] {
			return s
		}
	}
	return ""
}

// notifyPos is where a missing notification points: the notify list, else
// the consumers list or the communication section, else the downstream
// section, else the plan start.
func notifyPos(pass *rules.Pass) token.Pos {
	notify := downstreamOf(pass.Plan).Notify
	if c := pass.Plan.Communication; c != nil && !notify.Key.IsValid() {
		if c.Consumers.Key.IsValid() {
			return c.Consumers.Key
		}
		return c.Key
	}
	return listPos(pass, notify.Field)
}
