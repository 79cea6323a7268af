SELECT submission_date, client_id, event FROM `shop-prod.events_stable.events_v1` WHERE submission_date = @submission_date
