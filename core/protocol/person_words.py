"""Words agentui's own code puts in an agent's conversation for the person, as the model reads
them: here, at the bottom, because the offline scripted model recognises them too."""

FROM_THE_PERSON = "A message from the person: "  # how the model reads a steer's words
DECLINED = "The person declined to answer. Continue with your best judgement."
