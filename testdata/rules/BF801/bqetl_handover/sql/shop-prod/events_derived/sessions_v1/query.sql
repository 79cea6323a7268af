SELECT submission_date, client_id, COUNT(*) AS events FROM `shop-prod.events_derived.events_v1` WHERE submission_date = @submission_date GROUP BY 1, 2
