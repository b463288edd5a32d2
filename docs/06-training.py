# %% [markdown]
# # 6. Training a network
#
# Draft.

# %%
from micrograd.nn import MLP
print(len(MLP(2, [16, 16, 1]).parameters()))
